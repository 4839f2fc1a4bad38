import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesStore

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
            let home = try ChallengeHome.open(global, clock)
            guard let games = try await home.games(), let snapshot = games.snapshot else {
                throw AppError(
                    home.settings.group == nil
                        ? "You are not in a group: weeks are settled for a group's members."
                        : "The group store is out of reach and no week has been seen yet; try again when it is back.")
            }
            let summary = WeekSummary(
                snapshot: snapshot, names: try await home.memberNames(), me: home.settings.userID,
                today: home.calendar.day(containing: home.clock.now()),
                unsyncedDays: (try? home.store.syncState().unsyncedDays) ?? 0, offline: games.offline)
            print(json ? ChallengeHome.json(summary) : summary.text())
            return 0
        }
    }
}

extension ChallengeHome {
    /// The names of the group's members by user id, as the group store has them (or as cached).
    func memberNames() async throws(AppError) -> [UserID: String] {
        guard settings.group != nil else { return [:] }
        let actions = GroupActions(
            local: store, location: try global.resolveGroupStore(home: home, settings: settings), clock: clock,
            timeZone: machineTimeZone)
        guard let shown = try? await actions.show() else {
            return [settings.userID: settings.displayName?.value ?? "you"]
        }
        return Dictionary(
            shown.snapshot.members.map { ($0.userID, $0.displayName.value) }, uniquingKeysWith: { first, _ in first })
    }
}
