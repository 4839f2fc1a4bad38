import Foundation

/// The badges there are: each is earned once, on the day its condition first held.
public enum BadgeKind: String, Hashable, Sendable, Codable, CaseIterable {
    case firstDayKept = "first-day-kept"
    case streak3 = "streak-3"
    case streak7 = "streak-7"
    case streak30 = "streak-30"
    case streak100 = "streak-100"
    case halfWeek = "half-week"
    case productiveWeek = "productive-week"
    case cleanDay = "clean-day"
    case firstChallenge = "first-challenge"
    case hardChallenge = "hard-challenge"
    case fiveChallenges = "five-challenges"

    public enum Category: String, Sendable, CaseIterable { case streak, restraint, challenge }
    public enum Difficulty: String, Sendable, Comparable, CaseIterable {
        case bronze, silver, gold

        public static func < (lhs: Difficulty, rhs: Difficulty) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var title: String {
        switch self {
        case .firstDayKept: "First day kept"
        case .streak3: "Three in a row"
        case .streak7: "A week strong"
        case .streak30: "A month strong"
        case .streak100: "Hundred days"
        case .halfWeek: "Half the limit, all week"
        case .productiveWeek: "More earned than spent, all week"
        case .cleanDay: "A day without vice"
        case .firstChallenge: "First challenge kept"
        case .hardChallenge: "A hard challenge kept"
        case .fiveChallenges: "Five challenges kept"
        }
    }

    public var detail: String {
        switch self {
        case .firstDayKept: "a finished day within the limit"
        case .streak3: "a streak of 3 days"
        case .streak7: "a streak of 7 days"
        case .streak30: "a streak of 30 days"
        case .streak100: "a streak of 100 days"
        case .halfWeek: "7 days in a row at half the limit or less"
        case .productiveWeek: "7 days in a row with more productive than vice blocks"
        case .cleanDay: "a finished day with usage and no vice block"
        case .firstChallenge: "a challenge kept to its end"
        case .hardChallenge: "a hard challenge kept (long, and tight)"
        case .fiveChallenges: "five challenges kept"
        }
    }

    public var category: Category {
        switch self {
        case .firstDayKept, .streak3, .streak7, .streak30, .streak100: .streak
        case .halfWeek, .productiveWeek, .cleanDay: .restraint
        case .firstChallenge, .hardChallenge, .fiveChallenges: .challenge
        }
    }

    public var difficulty: Difficulty {
        switch self {
        case .firstDayKept, .streak3, .cleanDay, .firstChallenge: .bronze
        case .streak7, .halfWeek, .productiveWeek, .fiveChallenges: .silver
        case .streak30, .streak100, .hardChallenge: .gold
        }
    }
}

/// Which badges a history has earned, and on which day each was first earned.
public enum BadgeRules {
    /// - Parameters:
    ///   - records: finished days with their streaks filled in (any order; a day without a
    ///     record had no usage).
    ///   - keptChallenges: the challenges kept, each with the day its span ended.
    public static func earned(
        records: [DayRecord], keptChallenges: [(challenge: Challenge, day: LocalDate)] = []
    ) -> [BadgeKind: LocalDate] {
        var earned: [BadgeKind: LocalDate] = [:]
        func award(_ kind: BadgeKind, _ day: LocalDate) {
            if let known = earned[kind], known <= day { return }
            earned[kind] = day
        }
        let byDate = Dictionary(records.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        // Every calendar day from the first record to the last: a day without a record had no
        // usage, which is within half the limit but not a productive day.
        var halfRun = 0
        var productiveRun = 0
        if let firstDay = byDate.keys.min(), let lastDay = byDate.keys.max() {
            var date = firstDay
            while date <= lastDay {
                let day = byDate[date]
                if let day {
                    if day.keptLimit { award(.firstDayKept, date) }
                    for (kind, length) in [(BadgeKind.streak3, 3), (.streak7, 7), (.streak30, 30), (.streak100, 100)]
                    where day.streakAfter >= length {
                        award(kind, date)
                    }
                    if day.viceBlocks == 0 && day.productiveBlocks > 0 { award(.cleanDay, date) }
                }
                halfRun = (day.map { $0.viceBlocks * 2 <= $0.goalBlocks } ?? true) ? halfRun + 1 : 0
                if halfRun >= 7 { award(.halfWeek, date) }
                productiveRun = (day.map { $0.productiveBlocks > $0.viceBlocks } ?? false) ? productiveRun + 1 : 0
                if productiveRun >= 7 { award(.productiveWeek, date) }
                date = date.adding(days: 1)
            }
        }
        let kept = keptChallenges.sorted { $0.day < $1.day }
        if let first = kept.first { award(.firstChallenge, first.day) }
        if let hard = kept.first(where: { $0.challenge.isHard }) { award(.hardChallenge, hard.day) }
        if kept.count >= 5 { award(.fiveChallenges, kept[4].day) }
        return earned
    }
}
