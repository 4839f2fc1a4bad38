/// What a group's settlement does with a member whose days for a week never reached the group
/// store by the time the week closed (seed 002).
public enum MissingDaysRule: String, Hashable, Sendable, Codable, CaseIterable {
    /// Wait: the week is settled when the missing days arrive, with their penalty then.
    case pending
    /// Charge every missing day as a day over the limit, at once, with no adjustment later.
    case worstCase = "worst-case"
}

/// How a group settles its weeks: on which weekday a week starts (and the last one closes),
/// what a kept day earns, what a day over the limit costs, and the rule for missing days.
///
/// The week start is fixed once a week has been settled (weeks that were settled must stay the
/// weeks they were); the rates and the missing-days rule change for weeks that have not begun
/// yet (`SettlementSchedule`).
public struct SettlementRules: Hashable, Sendable, Codable {
    /// ISO weekday the week starts on: 1 = Monday … 7 = Sunday.
    public var weekStart: Int
    /// Coins a day within the limit earns.
    public var keptDayCoins: Int
    /// Coins a day over the limit costs.
    public var overDayCoins: Int
    public var missingDays: MissingDaysRule

    public init(weekStart: Int, keptDayCoins: Int, overDayCoins: Int, missingDays: MissingDaysRule) {
        self.weekStart = weekStart
        self.keptDayCoins = keptDayCoins
        self.overDayCoins = overDayCoins
        self.missingDays = missingDays
    }

    /// What a group has until it sets its own: weeks from Monday, +5 a kept day, -10 a day over,
    /// missing days wait.
    public static let standard = SettlementRules(weekStart: 1, keptDayCoins: 5, overDayCoins: 10, missingDays: .pending)

    public static let coinsRange = 0...1000
    public static let weekStartRange = 1...7

    /// What is wrong with these rules, if anything, in words for the person setting them.
    public var problem: String? {
        if !Self.weekStartRange.contains(weekStart) {
            return "A week starts on a weekday, 1 (Monday) to 7 (Sunday); \(weekStart) is not one."
        }
        if !Self.coinsRange.contains(keptDayCoins) || !Self.coinsRange.contains(overDayCoins) {
            return "Coins for a kept day or a day over the limit are 0 to 1000."
        }
        return nil
    }

    /// The first day of the week (as this group counts weeks) that holds `day`.
    public func firstDay(ofWeekContaining day: LocalDate) -> LocalDate {
        day.adding(days: -((day.isoWeekday - weekStart + 7) % 7))
    }

    /// English weekday names, Monday first.
    public static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// A weekday from its name or its first three letters ("mon", "Monday"), or nil.
    public static func weekday(named text: String) -> Int? {
        let wanted = text.lowercased()
        guard wanted.count >= 3 else { return nil }
        return weekdayNames.firstIndex { $0.hasPrefix(wanted) }.map { $0 + 1 }
    }

    public var weekStartName: String { Self.weekdayNames[(weekStart - 1) % 7] }
}
