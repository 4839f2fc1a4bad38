import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome

/// The zone every command counts days in: the machine's (`TZ` respected), asked afresh each
/// time. The command line is where it is chosen; everything a command runs is handed it.
let machineTimeZone = TimeZoneSource.system

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Data directory (default: $SCREENMATES_HOME, else $XDG_DATA_HOME/screenmates, else ~/.local/share/screenmates).",
            valueName: "dir"))
    var home: String?

    @Option(
        name: .customLong("group-store"),
        help: ArgumentHelp(
            "The group store: a SQLite file shared on this host (default: group-store.sqlite in the home), or a PostgreSQL server: postgres://user@host:port/db, or postgres://user@/db?host=/socket/dir; also SCREENMATES_GROUP_STORE.",
            valueName: "path|url"))
    var groupStore: String?

    /// The group store as the command line and the environment name it; a warning it gives goes
    /// to standard error.
    var groupStoreChoice: GroupStoreChoice {
        GroupStoreChoice(option: groupStore, environment: ProcessInfo.processInfo.environment) { warning in
            printError("warning: \(warning)")
        }
    }

    /// Where the group store is, for `home`: the option, the environment, the store the
    /// home's group was joined through (`settings`), or the default file.
    func resolveGroupStore(home: HomeDirectory, settings: UserSettings?) throws(AppError) -> GroupStoreLocation {
        try groupStoreChoice.location(home: home, settings: settings)
    }

    /// Whether a demo runs on the demo directory because no home was given (`--home` or
    /// `SCREENMATES_HOME`): a show, which starts afresh every time.
    func isImplicitDemoHome(demo: Bool) -> Bool {
        demo && home == nil && (ProcessInfo.processInfo.environment["SCREENMATES_HOME"] ?? "").isEmpty
    }

    /// The data directory; `demo` picks the separate demo home unless one was given.
    func resolveHome(demo: Bool = false) throws(AppError) -> HomeDirectory {
        try HomeDirectory.resolve(option: home, environment: ProcessInfo.processInfo.environment, demo: demo)
    }
}

/// `--speed` and `--start-at`: drive the app clock, so a day can pass in a minute.
struct ClockOptions: ParsableArguments {
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Run the app clock N times faster than real time.", valueName: "n"))
    var speed: Double?

    @Option(
        name: .customLong("start-at"),
        help: ArgumentHelp(
            "Start the app clock at this instant (2026-11-21T21:30:00Z, or local 2026-11-21T21:30).",
            valueName: "iso8601"))
    var startAt: String?

    func validate() throws {
        if let speed, !ClockSource.speedRange.contains(speed) {
            throw ValidationError("--speed must be between 0.001 and 1000000; \(speed) is not.")
        }
        if let startAt, TimeFormat.parseInstant(startAt, timeZone: machineTimeZone.current()) == nil {
            throw ValidationError(
                "--start-at needs an ISO 8601 instant such as 2026-11-21T21:30:00Z or 2026-11-21T21:30; \"\(startAt)\" is not one."
            )
        }
    }

    var startInstant: Date? { startAt.flatMap { TimeFormat.parseInstant($0, timeZone: machineTimeZone.current()) } }

    /// Whether the app clock is simulated.
    var isSimulated: Bool { speed != nil || startAt != nil }
}

extension HomeDirectory {
    /// Prepares the data directory, saying on standard error when others may use it.
    func prepareWarning() throws(AppError) {
        if let warning = try prepare() { printError("warning: \(warning)") }
    }
}
