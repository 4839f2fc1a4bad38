/// The span a leaderboard covers. Week and month totals come from synced per-day history.
public enum LeaderboardPeriod: String, Hashable, Sendable, Codable, CaseIterable {
    case today
    case week
    case month

    /// The first day of the period that contains `day` (weeks start on Monday).
    public func firstDay(containing day: LocalDate) -> LocalDate {
        switch self {
        case .today: day
        case .week: day.startOfWeek
        case .month: day.startOfMonth
        }
    }

    /// Days of the period up to and including `day`.
    public func daysSoFar(through day: LocalDate) -> Int {
        firstDay(containing: day).days(to: day) + 1
    }

    public var next: LeaderboardPeriod {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    public var previous: LeaderboardPeriod {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + all.count - 1) % all.count]
    }

    public var title: String {
        switch self {
        case .today: "today"
        case .week: "this week"
        case .month: "this month"
        }
    }
}
