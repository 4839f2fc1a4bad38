import Foundation
import ScreenMatesCore
import Testing

@Suite struct HistoryOverviewTests {
    /// Wednesday 18 March 2026; the week began on Monday 16th.
    let today = LocalDate(iso8601: "2026-03-18")!

    func record(_ date: String, vice: Int, goal: Int = 8, earned: Int = 0) -> DayRecord {
        DayRecord(
            date: LocalDate(iso8601: date)!, viceBlocks: vice, productiveBlocks: 1, goalBlocks: goal,
            earnedSeconds: earned, spentSeconds: vice * 900, endingBalanceSeconds: 0, overdraftSeconds: 0,
            streakAfter: 0)
    }

    func summary(vice: Int) -> TodaySummary {
        var ledger = DailyLedger()
        for index in 0..<vice {
            ledger.apply(
                UsageEvent(
                    id: UUID(), appID: "tiktok", category: .vice, seconds: 900,
                    occurredAt: Date(timeIntervalSince1970: 1_773_800_000 + Double(index))), exchangeRate: 1)
        }
        return TodaySummary(
            date: today, ledger: ledger, goal: 8, streak: .init(current: 2, best: 5), nextReset: Date())
    }

    @Test func totalsCountThisWeekAndThisMonthWithTodayIncluded() {
        let history = [
            record("2026-02-27", vice: 20), record("2026-03-14", vice: 9, earned: 600), record("2026-03-16", vice: 3),
            record("2026-03-17", vice: 10, earned: 300),
        ]
        let overview = HistoryOverview(
            history: history, today: summary(vice: 9), trackingStart: LocalDate(iso8601: "2026-02-27")!)
        #expect(overview.week.viceBlocks == 3 + 10 + 9)
        #expect(overview.week.daysOver == 1, "today, over so far, is not counted until it ends")
        #expect(overview.week.days == 3)
        #expect(overview.week.earnedSeconds == 300)
        #expect(overview.month.viceBlocks == 9 + 3 + 10 + 9)
        #expect(overview.month.daysOver == 2)
        #expect(overview.month.days == 18)
        #expect(overview.month.spentSeconds == (9 + 3 + 10 + 9) * 900)
        #expect(overview.allTime.daysOver == 3)
        #expect(overview.allTime.days == 20)
        #expect(overview.streak == .init(current: 2, best: 5))
    }

    @Test func theChartEndsTodayAndLeavesDaysBeforeTrackingEmpty() {
        let overview = HistoryOverview(
            history: [record("2026-03-16", vice: 3, goal: 6)], today: summary(vice: 1),
            trackingStart: LocalDate(iso8601: "2026-03-15")!)
        #expect(overview.days.map(\.date.iso8601) == (12...18).map { "2026-03-\($0)" })
        #expect(overview.days.map(\.viceBlocks) == [nil, nil, nil, 0, 3, 0, 1])
        #expect(overview.days.map(\.goal) == [8, 8, 8, 8, 6, 8, 8])
        #expect(overview.days.map(\.isToday) == [false, false, false, false, false, false, true])
        #expect(overview.allTime.days == 4)
    }

    @Test func atTheGoalIsKeptAndOneMoreIsOver() {
        let kept = HistoryOverview(history: [], today: summary(vice: 8), trackingStart: today)
        #expect(kept.week.daysOver == 0)
        #expect(kept.days.last?.isOver == false)
        let over = HistoryOverview(history: [], today: summary(vice: 9), trackingStart: today)
        #expect(over.days.last?.isOver == true, "today's bar says it is over")
        #expect(over.week.daysOver == 0, "but today is not a day over the limit until it ends")
    }
}
