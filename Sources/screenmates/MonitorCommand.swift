import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesSources

struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract:
            "Run the usage monitor: follow ActivityWatch, the focused window (X11, sway, Hyprland) or the terminal, or simulate usage.",
        discussion: """
            Writes usage blocks for your apps into the local database, which an open dashboard picks \
            up within a second. Each event's id is printed on standard output once it is committed. \
            Any number of monitors can write at once.

            --source activitywatch follows a running ActivityWatch server (--url, --host): a block is \
            one block length of one tracked app's active time (focused, and you not away), written \
            once however often it is read. --source x11 samples the focused window's class and the \
            idle time of an X11 desktop ($DISPLAY) every second; --source sway and --source \
            hyprland the focused window of those Wayland compositors ($SWAYSOCK, \
            $HYPRLAND_INSTANCE_SIGNATURE) and their idle signal; --source terminal the foreground \
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
            "Where usage comes from: auto, activitywatch, x11, sway, hyprland, terminal or simulated (default: auto, see below).",
            valueName: "source"))
    var source: String?

    @Option(
        help: ArgumentHelp(
            "The ActivityWatch server (default http://127.0.0.1:5600; its testing port is 5666).",
            valueName: "url"))
    var url: String?

    @Option(
        help: ArgumentHelp(
            "Read the ActivityWatch buckets of this host (default: this machine, or the only one there).",
            valueName: "name"))
    var host: String?

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
        switch await perform() {
        case .success(let status):
            if status != 0 { throw ExitCode(status) }
        case .failure(let error):
            FileHandle.standardError.write(Data("screenmates: \(error.message)\n".utf8))
            throw ExitCode(error.exitStatus)
        }
    }

    /// The simulation's own options given on the command line.
    private var simulationOptions: [String] {
        [
            seed.map { _ in "--seed" }, count.map { _ in "--count" }, rate.map { _ in "--rate" },
            scenario.map { _ in "--scenario" }, clock.speed.map { _ in "--speed" },
            clock.startAt.map { _ in "--start-at" },
        ].compactMap { $0 }
    }

    private func perform() async -> Result<Int32, AppError> {
        let activityWatch = ActivityWatchOptions(url: url, host: host, quiet: quiet)
        let kind: UsageSourceKind
        do {
            let (resolved, announce) = try await UsageSourceKind.resolve(
                explicit: source.flatMap { UsageSourceKind(rawValue: $0.lowercased()) },
                simulationOptions: simulationOptions,
                activityWatchOptions: [url.map { _ in "--url" }, host.map { _ in "--host" }].compactMap { $0 },
                activityWatch: activityWatch)
            kind = resolved
            // Said even with --quiet (which silences ids and waits): a service's journal shows it.
            if let announce { FileHandle.standardError.write(Data("screenmates monitor: \(announce)\n".utf8)) }
        } catch {
            return .failure(error)
        }
        let idle = SamplingOptions().idleThreshold
        let environment = ProcessInfo.processInfo.environment
        switch kind {
        case .activitywatch: return await follow(activityWatch)
        case .terminal: return await sample { () throws(FocusProbeError) -> any FocusProbe in TerminalProbe() }
        case .x11: return await sample { () throws(FocusProbeError) -> any FocusProbe in try X11Probe() }
        case .sway:
            return await sample { () throws(FocusProbeError) -> any FocusProbe in
                try SwayProbe(idleTimeout: idle, environment: environment)
            }
        case .hyprland:
            return await sample { () throws(FocusProbeError) -> any FocusProbe in
                try HyprlandProbe(idleTimeout: idle, environment: environment)
            }
        case .auto:
            // ActivityWatch did not answer: the desktop or the terminal, chosen again as it runs.
            let session = SessionSources(environment: environment, idleTimeout: idle)
            return await sample { () throws(FocusProbeError) -> any FocusProbe in
                AutoProbe(session: session) { TerminalProbe() }
            }
        case .simulated: break
        }
        let session: MonitorSession
        do {
            let home = try global.resolveHome(demo: clock.isSimulated)
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let options = MonitorOptions(
                seed: seed, count: count, rate: rate.flatMap(Self.parseRate), speed: clock.speed,
                startAt: clock.startInstant, scenario: scenario, quiet: quiet)
            try home.requireData()
            try home.prepareWarning()
            let logger = LogSetup.bootstrap(home: home)
            StopSignals.install()
            session = try MonitorSession(
                home: home, assets: assets, options: options, timeZone: machineTimeZone, logger: logger)
        } catch {
            return .failure(AppError(error))
        }
        return .success(
            await StopSignals.watching { stop in await StartupPages.handedBack { await session.run(stop: stop) } })
    }

    /// `--source activitywatch`: follows ActivityWatch on the real clock.
    private func follow(_ options: ActivityWatchOptions) async -> Result<Int32, AppError> {
        let follower: ActivityWatchFollower
        do {
            let home = try global.resolveHome()
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            try home.requireData()
            try home.prepareWarning()
            let logger = LogSetup.bootstrap(home: home)
            StopSignals.install()
            follower = try ActivityWatchFollower(
                home: home, assets: assets, options: options, timeZone: machineTimeZone, logger: logger)
        } catch {
            return .failure(AppError(error))
        }
        return .success(
            await StopSignals.watching { stop in await StartupPages.handedBack { await follower.run(stop: stop) } })
    }

    /// `--source terminal|x11|sway|hyprland|auto`: samples the focus on the real clock.
    private func sample(_ probe: @escaping SampledFollower.ProbeMaker) async -> Result<Int32, AppError> {
        let follower: SampledFollower
        do {
            let home = try global.resolveHome()
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            try home.requireData()
            try home.prepareWarning()
            let logger = LogSetup.bootstrap(home: home)
            StopSignals.install()
            follower = try SampledFollower(
                home: home, assets: assets, options: SamplingOptions(quiet: quiet), timeZone: machineTimeZone,
                logger: logger, probe: probe)
        } catch {
            return .failure(AppError(error))
        }
        return .success(
            await StopSignals.watching { stop in await StartupPages.handedBack { await follower.run(stop: stop) } })
    }
}
