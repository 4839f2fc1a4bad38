import Foundation
import ScreenMatesCore

/// Everything the dashboard shows, gathered by the application from the store and the clock.
/// The view draws only from this; it never reads a store or a clock itself.
public struct DashboardData: Hashable, Sendable {
    public var userName: String
    /// The group's code and size, or `nil` without a group.
    public var group: GroupSummary?
    public var calendar: DayCalendar
    /// The app clock's time when this was gathered.
    public var now: Date
    /// How fast the app clock runs (shown when it is not 1).
    public var clockSpeed: Double
    public var today: TodaySummary
    /// The ranked members for each period.
    public var leaderboards: [LeaderboardPeriod: [LeaderboardEntry]]
    /// Something the user should know is wrong (the store is locked, the disk is full…); the
    /// numbers on screen are then the last good ones.
    public var warning: String?
    /// A short note on what feeds the numbers, e.g. "demo monitor".
    public var source: String?
    /// The last days, totals and streaks, for the history screen and the sparkline.
    public var history: HistoryOverview?
    /// The settings in force, for the settings screen.
    public var settings: UserSettings?

    /// The group line of the header: the group's code and how many members it has (the user
    /// included).
    public struct GroupSummary: Hashable, Sendable {
        public var code: String
        public var memberCount: Int

        public init(code: String, memberCount: Int) {
            self.code = code
            self.memberCount = memberCount
        }
    }

    public init(
        userName: String, group: GroupSummary?, calendar: DayCalendar, now: Date, clockSpeed: Double,
        today: TodaySummary, leaderboards: [LeaderboardPeriod: [LeaderboardEntry]], warning: String? = nil,
        source: String? = nil
    ) {
        self.userName = userName
        self.group = group
        self.calendar = calendar
        self.now = now
        self.clockSpeed = clockSpeed
        self.today = today
        self.leaderboards = leaderboards
        self.warning = warning
        self.source = source
    }

    public func leaderboard(_ period: LeaderboardPeriod) -> [LeaderboardEntry] { leaderboards[period] ?? [] }
}
