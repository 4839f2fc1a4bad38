import ArgumentParser
import Foundation
import Logging
import ScreenMatesHome
import ScreenMatesMonitorRuntime
import ScreenMatesWatch

struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract:
            "Run the usage monitor: follow ActivityWatch, the focused window (X11, sway, Hyprland, GNOME, KDE Plasma) or the terminal, or simulate usage.",
        discussion: """
            Writes usage blocks for your apps into the local database, which an open dashboard picks \
            up within a second. Each event's id is printed on standard output once it is committed. \
            Any number of monitors can write at once.

            --source activitywatch follows a running ActivityWatch server (--url, --host): a block is \
            one block length of one tracked app's active time (focused, and you not away), written \
            once however often it is read. --source x11 samples the focused window's class and the \
            idle time of an X11 desktop ($DISPLAY) every second; --source sway and --source \
            hyprland the focused window of those Wayland compositors ($SWAYSOCK, \
            $HYPRLAND_INSTANCE_SIGNATURE) and their idle signal; --source gnome the focused window \
            of GNOME Shell, through ScreenMates' GNOME Shell extension (it says how to install it), \
            and Mutter's idle time; --source kde the focused window of KDE Plasma's KWin, through a \
            script the monitor loads into KWin (and unloads), and its idle signal; --source terminal \
            the foreground \
            program of tmux's active pane (or of your terminals) and the time since you last typed. \
            Input older than 3 minutes, a locked screen or a sleeping machine counts nothing. \
            --source simulated makes usage up: without --rate at a realistic pace on the app clock; \
            without --count until stopped. --seed, --rate, --scenario, --count, --speed and \
            --start-at imply it. With no source and none of those (or --source auto), the first that \
            answers of ActivityWatch, the session's desktop and the terminal is followed, and the \
            monitor says which; when the desktop it follows goes away it chooses again.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seed: the same seed makes the same events (and ids).", valueName: "n"))
    var seed: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many events.", valueName: "n"))
    var count: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Events per real second, or max for as fast as the store takes them.", valueName: "n|max"))
    var rate: String?

    @Option(
        help: ArgumentHelp(
            "Play a scenario: a name in assets/scenarios (typical-day, evening-binge) or a JSON file.",
            valueName: "name"))
    var scenario: String?

    @Option(
        help: ArgumentHelp(
            "Where usage comes from: auto, activitywatch, x11, sway, hyprland, gnome, kde, terminal or simulated (default: auto, see below).",
            valueName: "source"))
    var source: String?

    @OptionGroup var activityWatch: ActivityWatchServerOptions

    @Flag(help: "Print neither the event ids nor what the monitor waits for.")
    var quiet = false

    func validate() throws {
        if let source, UsageSourceKind(rawValue: source.lowercased()) == nil {
            throw ValidationError(
                "--source takes \(UsageSourceKind.names); \"\(source)\" is not one.")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1; \(count) is not.") }
        if let rate, Self.parseRate(rate) == nil {
            throw ValidationError(
                "--rate takes a number of events per second above 0 (up to 100000), or max; \"\(rate)\" is not one.")
        }
    }

    static func parseRate(_ text: String) -> MonitorOptions.Rate? {
        if text.lowercased() == "max" { return .unlimited }
        guard let value = Double(text), value > 0, value <= 100_000 else { return nil }
        return .perSecond(value)
    }

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in try await perform() }
    }

    /// The simulation's own options given on the command line.
    private var simulationOptions: [String] {
        [
            seed.map { _ in "--seed" }, count.map { _ in "--count" }, rate.map { _ in "--rate" },
            scenario.map { _ in "--scenario" }, clock.speed.map { _ in "--speed" },
            clock.startAt.map { _ in "--start-at" },
        ].compactMap { $0 }
    }

    private func perform() async throws(AppError) -> Int32 {
        let server = activityWatch.options(quiet: quiet)
        let (kind, announce) = try await UsageSourceKind.resolve(
            explicit: source.flatMap { UsageSourceKind(rawValue: $0.lowercased()) },
            simulationOptions: simulationOptions, activityWatchOptions: activityWatch.given, activityWatch: server)
        // Said even with --quiet (which silences ids and waits): a service's journal shows it.
        if let announce { FileHandle.standardError.write(Data("screenmates monitor: \(announce)\n".utf8)) }
        if kind == .activitywatch { return try await follow(server) }
        let probe = kind.probe(
            idleTimeout: SamplingOptions().idleThreshold, environment: ProcessInfo.processInfo.environment)
        if let probe { return try await sample(probe) }
        let (home, assets) = try startingHome(demo: clock.isSimulated)
        let options = MonitorOptions(
            seed: seed, count: count, rate: rate.flatMap(Self.parseRate), speed: clock.speed,
            startAt: clock.startInstant, scenario: scenario, quiet: quiet)
        let logger = LogSetup.bootstrap(home: home)
        let session = try MonitorSession(
            home: home, assets: assets, options: options, timeZone: machineTimeZone, logger: logger)
        return await Self.watching(logger) { stop in await session.run(stop: stop) }
    }

    /// The home the monitor writes to, ready, and the assets; stop signals are caught from here on.
    private func startingHome(demo: Bool = false) throws(AppError) -> (HomeDirectory, AssetCatalog) {
        let home = try global.resolveHome(demo: demo)
        let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
        try home.requireData()
        try home.prepareWarning()
        StopSignals.install()
        return (home, assets)
    }

    /// `--source activitywatch`: follows ActivityWatch on the real clock.
    private func follow(_ options: ActivityWatchOptions) async throws(AppError) -> Int32 {
        let (home, assets) = try startingHome()
        let logger = LogSetup.bootstrap(home: home)
        let follower = try ActivityWatchFollower(
            home: home, assets: assets, options: options, timeZone: machineTimeZone, logger: logger)
        return await Self.watching(logger) { stop in await follower.run(stop: stop) }
    }

    /// `--source terminal|x11|sway|hyprland|gnome|kde|auto`: samples the focus on the real clock.
    private func sample(_ probe: @escaping SampledFollower.ProbeMaker) async throws(AppError) -> Int32 {
        let (home, assets) = try startingHome()
        let logger = LogSetup.bootstrap(home: home)
        let follower = try SampledFollower(
            home: home, assets: assets, options: SamplingOptions(quiet: quiet), timeZone: machineTimeZone,
            logger: logger, probe: probe)
        return await Self.watching(logger) { stop in await follower.run(stop: stop) }
    }

    /// Runs a monitor until a stop signal: the pages start-up touched handed back, and a stall of
    /// the tasks logged (`PoolWatchdog`).
    private static func watching(_ logger: Logger, _ run: (StopRequest) async -> Int32) async -> Int32 {
        await StopSignals.watching { stop in
            await PoolWatchdog.watching(onChange: PoolWatchdog.logging(to: logger)) {
                await StartupPages.handedBack { await run(stop) }
            }
        }
    }
}
