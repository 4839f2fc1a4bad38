import ArgumentParser
import ScreenMatesGroupSync
import ScreenMatesHome

/// `screenmates week`: the group's settled weeks, each member's result.
struct WeekCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "week", abstract: "Your group's weeks: the rules, and each member's settled result.",
        discussion: """
            Each week closes when the group's next one starts; every member's week is then settled once \
            for the whole group: kept days earn coins, days over the limit cost them. Days not sent to \
            the group store by then wait (pending) or are charged as over (worst-case), as the group \
            chose (`screenmates group set`). Your own result goes into your coins, once.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(
        help: """
            Print JSON: {weekStart, currentWeek, closesOn, keptDayCoins, overDayCoins, missingDays, unsyncedDays, \
            reminder, offline, results: [{week, name, isMe, status, keptDays, overDays, missingDays, coins, rule, \
            settledAt}]}.
            """)
    var json = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let summary = try await ChallengeHome.open(global, clock).weekSummary()
            print(json ? jsonText(summary) : summary.text())
            return 0
        }
    }
}
