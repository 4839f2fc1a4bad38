import ArgumentParser

/// `screenmates`: the dashboard by default, and the subcommands that do the same work without
/// a screen, for scripts. Started from `main.swift`.
struct ScreenMatesCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "screenmates",
        abstract: "A social screen-time tracker for the terminal.",
        discussion: """
            Tracks vice and productive app usage in blocks, and shows your balance, your streak, \
            today's progress against the daily limit and your group's leaderboard, live.

            Global options (--home, --group-store) may come before or after the subcommand.
            """,
        version: version,
        subcommands: [
            DashboardCommand.self, SetupCommand.self, StatusCommand.self, GroupCommand.self, SyncCommand.self,
            MonitorCommand.self, DemoCommand.self, NotifyCommand.self, RecoverCommand.self, ExportCommand.self,
            ConfigCommand.self, ImportCommand.self, AppsCommand.self,
        ],
        defaultSubcommand: DashboardCommand.self)

    /// Parses the command line (global options may come before the subcommand) and runs it.
    /// On the main actor, so the dashboard's loop — which owns ncurses — runs on the main
    /// thread and does not hold a thread of the shared pool the monitor tasks run on.
    @MainActor
    static func start() async {
        let arguments = GlobalOptionPlacement.movingGlobalsAfterSubcommand(
            Array(CommandLine.arguments.dropFirst()), root: ScreenMatesCommand.self)
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Lets global options come before the subcommand (`screenmates --home DIR status`), as the
/// README shows them, by moving them after it (after the innermost one: `group join`), where
/// each subcommand declares them.
enum GlobalOptionPlacement {
    static let globalsWithValue: Set<String> = ["--home", "--group-store"]

    static func movingGlobalsAfterSubcommand(_ arguments: [String], root: any ParsableCommand.Type) -> [String] {
        var command = root
        var path: [String] = []
        var rest = arguments
        var globals: [String] = []
        // Globals before the subcommands, then the chain of subcommand names.
        while let first = rest.first {
            let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            if globalsWithValue.contains(name) {
                globals.append(rest.removeFirst())
                if !first.contains("="), let value = rest.first {
                    globals.append(value)
                    rest.removeFirst()
                }
                continue
            }
            guard
                let next = command.configuration.subcommands.first(where: { $0._commandName == first })
            else { break }
            path.append(first)
            command = next
            rest.removeFirst()
        }
        guard !globals.isEmpty, !path.isEmpty else { return arguments }
        return path + globals + rest
    }
}
