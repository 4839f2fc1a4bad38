import ArgumentParser
import Foundation
import ScreenMatesDashboard
import ScreenMatesGroupSync
import ScreenMatesHome

struct DashboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Show the live dashboard (the default command; the first run asks for your name).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(
        help: """
            Run the simulated usage monitor inside the dashboard, so the numbers move. Without --home, a demo \
            (or --speed / --start-at) uses the demo directory inside the data directory, and a demo there \
            starts afresh on every run (its profile stays).
            """)
    var demo = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Simulated group-mates the demo brings along, in the demo's own group store (0-\(GroupDemo.maximumMembers); 0 for none).",
            valueName: "n"))
    var members = 5

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seed for the demo monitor (default: derived from your user id).", valueName: "n"))
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "Usage profile for the demo monitor: a name in assets/scenarios or a JSON file.", valueName: "name"))
    var scenario = "typical-day"

    @Option(
        help: ArgumentHelp(
            "Colour theme: terminal, dark or light (default: the theme in your settings, else terminal).",
            valueName: "name"))
    var theme: String?

    @Flag(name: .customLong("no-color"), help: "No colours (also when NO_COLOR is set).")
    var noColor = false

    @Flag(help: "Draw with ASCII characters only (automatic where the locale is not UTF-8).")
    var ascii = false

    @Flag(help: "Ring the terminal bell with each notice.")
    var bell = false

    @Flag(
        name: .customLong("desktop-notify"),
        help:
            "Also send each notice to the desktop (OSC 777 / OSC 9 escape sequences, and notify-send where installed)."
    )
    var desktopNotify = false

    /// The key table as JSON, for the manual page's KEYS section (as `--experimental-dump-help`
    /// is for its commands); not for people, so hidden.
    @Flag(name: .customLong("experimental-dump-keys"), help: .hidden)
    var dumpKeys = false

    func validate() throws {
        guard (0...GroupDemo.maximumMembers).contains(members) else {
            throw ValidationError("--members must be between 0 and \(GroupDemo.maximumMembers); \(members) is not.")
        }
    }

    /// On the main actor, with its body (`reporting` runs on its caller's actor): the dashboard's
    /// loop keeps the main thread from the start, as ncurses wants, and holds no thread of the
    /// pool the background work runs on.
    @MainActor func run() async throws {
        if dumpKeys {
            print(KeyReference.json())
            return
        }
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try global.resolveHome(demo: demo || clock.isSimulated)
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let noColorEnv = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            let options = DashboardOptions(
                demo: demo, mates: members, speed: clock.speed, startAt: clock.startInstant, seed: seed,
                scenario: scenario,
                theme: theme,
                useColor: !(noColor || noColorEnv), forceASCII: ascii,
                groupStore: try global.groupStoreChoice.named(home: home), bell: bell, desktop: desktopNotify,
                startAfresh: global.isImplicitDemoHome(demo: demo), environment: ProcessInfo.processInfo.environment)
            try home.prepareWarning()
            let logger = LogSetup.bootstrap(home: home)
            let session = try DashboardSession(
                home: home, assets: assets, options: options, timeZone: machineTimeZone, logger: logger)
            if options.startAfresh {
                printError(
                    "the demo starts afresh in \(home.path): usage, history and notices are new each run; your apps, name and group stay (give --home DIR to keep a demo's days)."
                )
            }
            return try await session.run()
        }
    }
}
