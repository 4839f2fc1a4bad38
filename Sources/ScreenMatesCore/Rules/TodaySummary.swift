import Foundation

/// Today's numbers as the dashboard and `status` show them: the ledger, progress against the
/// goal, the streak and today's live status, and when the day resets.
public struct TodaySummary: Hashable, Sendable {
    public var date: LocalDate
    public var ledger: DailyLedger
    public var progress: DailyProgress
    public var streak: StreakManager.Summary
    public var nextReset: Date

    public init(date: LocalDate, ledger: DailyLedger, goal: Int, streak: StreakManager.Summary, nextReset: Date) {
        self.date = date
        self.ledger = ledger
        self.progress = DailyProgress(blocksUsed: ledger.viceBlocks, goal: goal)
        self.streak = streak
        self.nextReset = nextReset
    }

    public var state: LimitState { progress.state }
    public var todayStatus: StreakManager.TodayStatus { .init(progress.state) }
}
