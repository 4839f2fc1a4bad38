import Foundation

/// Today's numbers as the dashboard and `status` show them: the ledger, progress against the
/// goal, the streak and today's live status, and when the day resets.
public struct TodaySummary: Hashable, Sendable {
    public var date: LocalDate
    /// The member's day: this machine's ledger with what their other machines used counted in.
    public var ledger: DailyLedger
    public var progress: DailyProgress
    public var streak: StreakManager.Summary
    public var nextReset: Date
    /// Of the blocks in `ledger`, those used on the member's other machines (as the group store
    /// last said them).
    public var otherMachinesBlocks: Int

    public init(
        date: LocalDate, ledger: DailyLedger, goal: Int, streak: StreakManager.Summary, nextReset: Date,
        otherMachinesBlocks: Int = 0
    ) {
        self.date = date
        self.ledger = ledger
        self.otherMachinesBlocks = otherMachinesBlocks
        self.progress = DailyProgress(blocksUsed: ledger.viceBlocks, goal: goal)
        self.streak = streak
        self.nextReset = nextReset
    }

    public var state: LimitState { progress.state }
    public var todayStatus: StreakManager.TodayStatus { .init(progress.state) }
}
