import Foundation

/// How one member's days of one week added up: kept, over the limit, and not there.
public struct WeekTally: Hashable, Sendable, Codable {
    public var keptDays: Int
    public var overDays: Int
    /// Days of the week whose totals had not reached the group store.
    public var missingDays: Int

    public init(keptDays: Int, overDays: Int, missingDays: Int) {
        self.keptDays = keptDays
        self.overDays = overDays
        self.missingDays = missingDays
    }
}

/// One member's settled (or pending) week, as the group store keeps it: computed once for the
/// whole group, then booked once into the member's own coin ledger.
public struct WeekResult: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable {
        /// The week closed with days missing and the group waits for them.
        case pending
        /// Final: the coins are what the member's ledger books.
        case settled
    }

    public var userID: UserID
    /// The week's first day.
    public var week: LocalDate
    public var status: Status
    public var tally: WeekTally
    /// The coins the week brings (negative: what it costs); 0 while pending.
    public var coins: Int
    /// The rule that applied to missing days when the week closed.
    public var rule: MissingDaysRule
    /// When the result became final (nil while pending).
    public var settledAt: Date?

    public init(
        userID: UserID, week: LocalDate, status: Status, tally: WeekTally, coins: Int, rule: MissingDaysRule,
        settledAt: Date?
    ) {
        self.userID = userID
        self.week = week
        self.status = status
        self.tally = tally
        self.coins = coins
        self.rule = rule
        self.settledAt = settledAt
    }

    /// The ledger's cause for this result: one per group, member and week, so booking it again
    /// books nothing.
    public func cause(group code: GroupCode) -> String { "week \(code.value) \(week.iso8601)" }
}
