import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

/// Today's figures and the days behind them as `FiguresReader` last read them: a plain value, so the
/// dashboard's update function decides from it without reading a store.
public struct UsageFigures: Hashable, Sendable {
    public var settings: UserSettings
    public var dayState: DayState
    public var calendar: DayCalendar
    /// The day shown as today (the clock's day, or the last reset day if the clock is behind).
    public var today: LocalDate
    /// The instants that belong to today.
    public var todayInterval: Range<Date>
    /// This machine's own day: what it reports to the group.
    public var ledger: DailyLedger
    /// The member's finished days: on every machine of theirs the same, as far as the group store
    /// had them.
    public var history: [DayRecord]
    /// Today as the member's: this machine's day with their other machines' counted in.
    public var summary: TodaySummary
    /// Total events stored, each counted once.
    public var eventsApplied: Int
    /// The newest event's time: when the user was last active.
    public var lastActive: Date?
    /// Why the database cannot be written right now (read-only), if it cannot.
    public var notWritable: String?

    public init(
        settings: UserSettings, dayState: DayState, calendar: DayCalendar, today: LocalDate,
        todayInterval: Range<Date>, ledger: DailyLedger, history: [DayRecord], summary: TodaySummary,
        eventsApplied: Int, lastActive: Date?, notWritable: String?
    ) {
        self.settings = settings
        self.dayState = dayState
        self.calendar = calendar
        self.today = today
        self.todayInterval = todayInterval
        self.ledger = ledger
        self.history = history
        self.summary = summary
        self.eventsApplied = eventsApplied
        self.lastActive = lastActive
        self.notWritable = notWritable
    }

    /// Vice blocks in each leaderboard period, from history and today.
    public func blocks(in period: LeaderboardPeriod) -> Int {
        let first = period.firstDay(containing: today)
        return history.filter { $0.date >= first && $0.date < today }.reduce(summary.ledger.viceBlocks) {
            $0.saturatingAdding($1.viceBlocks)
        }
    }

    /// What the group is told of the user now, if they have a name to be shown by: this machine's
    /// own blocks (the store adds the member's machines up; its productive ones go to the member's
    /// other machines only), and the member's streak.
    public var profileDraft: ProfileDraft? {
        settings.displayName.map {
            ProfileDraft(
                displayName: $0, blocksToday: ledger.viceBlocks, day: today, streak: summary.streak.current,
                lastActive: lastActive, productiveToday: ledger.productiveBlocks)
        }
    }
}
