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
            ConfigCommand.self, ImportCommand.self, AppsCommand.self, ChallengeCommand.self, CoinsCommand.self,
            PruneCommand.self,
            BadgesCommand.self, RankingCommand.self, WeekCommand.self, RestoreCommand.self, AccountCommand.self,
            DevicesCommand.self,
        ],
        defaultSubcommand: DashboardCommand.self)

    /// The global options, declared here too so that they may come before the subcommand
    /// (`screenmates --home DIR status`, as the README shows them): ArgumentParser hands an
    /// option group decoded for a command on to its subcommands that declare the same group.
    @OptionGroup var global: GlobalOptions

    /// Parses the command line and runs it.
    /// On the main actor, so the dashboard's loop — which owns ncurses — runs on the main
    /// thread and does not hold a thread of the shared pool the monitor tasks run on.
    @MainActor
    static func start() async {
        do {
            var command = try parseAsRoot()
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
