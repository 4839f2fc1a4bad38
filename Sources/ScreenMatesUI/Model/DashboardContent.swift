import Foundation
import ScreenMatesCore

/// Everything the dashboard shows, gathered by the application from the store and the clock.
/// The view draws only from this; it never reads a store or a clock itself.
public struct DashboardContent: Hashable, Sendable {
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
    /// Applications a usage source saw that match none of the apps, for the settings screen
    /// (gathered only while it is open).
    public var seenApps: [SettingsScreenState.SeenApp]?
    /// The debug panel's facts, gathered only while it is open.
    public var debugLines: [DebugLine]?
    /// Coins, challenges, badges and the group's weeks (the header shows the coins when set).
    public var games: GamesData?

    public struct DebugLine: Hashable, Sendable {
        public var label: String
        public var value: String

        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// Notices shown so far, newest first (the pane and the log screen).
    public var notices: [NoticeLine] = []
    /// The notice on screen right now, if any.
    public var toast: Toast?

    /// A notice as the screen lists it.
    public struct NoticeLine: Hashable, Sendable {
        public var at: Date
        public var title: String
        public var body: String
        public var severity: Notice.Severity

        public init(at: Date, title: String, body: String, severity: Notice.Severity) {
            self.at = at
            self.title = title
            self.body = body
            self.severity = severity
        }
    }

    /// A notice shown over the leaderboard for a few seconds; `fading` in its last moment.
    public struct Toast: Hashable, Sendable {
        public var notice: NoticeLine
        public var fading: Bool

        public init(notice: NoticeLine, fading: Bool) {
            self.notice = notice
            self.fading = fading
        }
    }

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
