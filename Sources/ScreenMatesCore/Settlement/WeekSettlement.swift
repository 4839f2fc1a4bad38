/// The weekly settlement's arithmetic (seed 002), the same for every group store: which weeks
/// have closed, which of a member's days count, and what they come to.
///
/// A week of `first…first+6` closes when the day `first+7` begins. A member's days count from
/// the later of the day the group began settling and the day they joined; a week with no such
/// day is not theirs. A kept day (vice blocks at most the day's goal) earns the kept-day coins,
/// a day over costs the over-day coins; a day whose total is not in the store is *missing*:
/// under `pending` the week waits for it, under `worst-case` it costs as a day over, at once.
public enum WeekSettlement {
    /// What settling one member's week gives.
    public enum Outcome: Hashable, Sendable {
        /// None of the week's days are the member's (joined later).
        case notTheirs
        /// Days are missing and the rule is `pending`: nothing to book yet.
        case pending(WeekTally)
        /// Final.
        case settled(WeekTally, coins: Int)
    }

    /// One day's total, as the group store holds it.
    public struct Day: Hashable, Sendable {
        public var viceBlocks: Int
        public var goalBlocks: Int

        public init(viceBlocks: Int, goalBlocks: Int) {
            self.viceBlocks = viceBlocks
            self.goalBlocks = goalBlocks
        }
    }

    /// How many weeks one call looks back at most: a group settled long ago catches up over
    /// several calls rather than in one huge transaction.
    public static let maximumWeeksPerCall = 520

    /// The first days of the weeks that have closed by `today`, from the week holding `from`,
    /// oldest first (at most `maximumWeeksPerCall`, the newest kept).
    public static func closedWeeks(from: LocalDate, today: LocalDate, rules: SettlementRules) -> [LocalDate] {
        let first = rules.firstDay(ofWeekContaining: from)
        let lastOpen = rules.firstDay(ofWeekContaining: today)
        guard first < lastOpen else { return [] }
        let count = first.days(to: lastOpen) / 7
        return (max(0, count - maximumWeeksPerCall)..<count).map { first.adding(days: 7 * $0) }
    }

    /// The days of the week starting `week` that count for a member whose days count from
    /// `memberFrom`.
    public static func countedDays(week: LocalDate, memberFrom: LocalDate) -> [LocalDate] {
        (0..<7).map { week.adding(days: $0) }.filter { $0 >= memberFrom }
    }

    /// Settles one member's week from the totals the store holds for them.
    ///
    /// - Parameters:
    ///   - memberFrom: the first day that counts for the member.
    ///   - days: the member's totals by day (days outside the week are ignored).
    ///   - rule: what to do with missing days.
    public static func settle(
        week: LocalDate, memberFrom: LocalDate, days: [LocalDate: Day], rule: MissingDaysRule, keptDayCoins: Int,
        overDayCoins: Int
    ) -> Outcome {
        let counted = countedDays(week: week, memberFrom: memberFrom)
        guard !counted.isEmpty else { return .notTheirs }
        var tally = WeekTally(keptDays: 0, overDays: 0, missingDays: 0)
        for date in counted {
            guard let day = days[date] else {
                tally.missingDays += 1
                continue
            }
            if day.viceBlocks <= day.goalBlocks { tally.keptDays += 1 } else { tally.overDays += 1 }
        }
        if tally.missingDays > 0 && rule == .pending { return .pending(tally) }
        return .settled(tally, coins: coins(tally, keptDayCoins: keptDayCoins, overDayCoins: overDayCoins))
    }

    /// Kept days earn, days over and missing days cost. Saturates: the rates may come from a
    /// stored result that another member wrote.
    public static func coins(_ tally: WeekTally, keptDayCoins: Int, overDayCoins: Int) -> Int {
        let earned = tally.keptDays.saturatingMultiplied(by: keptDayCoins)
        let charged = tally.overDays.saturatingAdding(tally.missingDays).saturatingMultiplied(by: overDayCoins)
        return earned.saturatingAdding(charged.saturatingNegated)
    }

    /// The day a member's days count from: the later of the day the group began settling and
    /// the day they joined.
    public static func memberFrom(settleFrom: LocalDate, joined: LocalDate) -> LocalDate {
        max(settleFrom, joined)
    }
}
