import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesStore

extension StatusReport {
    public struct Coins: Encodable, Sendable {
        public var balance: Int
        /// Entries in the ledger (`screenmates coins` lists them).
        public var transactions: Int
    }

    public struct Badge: Encodable, Sendable {
        public var kind, title, category, difficulty, earned: String
    }

    /// Adds the coins, challenges, badges and the group's weeks: what this home's store holds,
    /// and the group's part as last read (`games`, nil outside a group or never read), the boards
    /// of the open challenges as last read (`open`).
    public mutating func include(
        store: LocalStore, settings: UserSettings, calendar: DayCalendar, now: Date, games: GroupGamesSnapshot?,
        offline: Bool, names: [UserID: String], open: OpenBoards? = nil
    ) {
        let ledger = (try? store.coinLedger()) ?? CoinLedger()
        coins = Coins(balance: ledger.balance, transactions: ledger.transactions.count)
        challenges = ChallengeSummary.all(
            stored: (try? store.challenges()) ?? [], games: games, settings: settings, calendar: calendar, now: now,
            openBoards: open?.boards ?? [])
        openChallenges = challenges.filter(\.openToAll)
        badges = ((try? store.badges()) ?? []).map { earned in
            Badge(
                kind: earned.kind.rawValue, title: earned.kind.title, category: earned.kind.category.rawValue,
                difficulty: earned.kind.difficulty.rawValue, earned: earned.day.iso8601)
        }
        if settings.group != nil, let games {
            week = WeekSummary(
                snapshot: games, names: names, me: settings.userID, today: calendar.day(containing: now),
                unsyncedDays: sync.unsyncedDays, offline: offline)
        }
    }
}
