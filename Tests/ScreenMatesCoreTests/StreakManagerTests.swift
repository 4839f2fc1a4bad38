import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct StreakManagerTests {
    private static let start = LocalDate(year: 2026, month: 11, day: 1)!

    private static func day(_ offset: Int) -> LocalDate { start.adding(days: offset) }

    private static func record(_ offset: Int, vice: Int, goal: Int = 8) -> DayRecord {
        DayRecord(
            date: day(offset), viceBlocks: vice, productiveBlocks: 0, goalBlocks: goal, earnedSeconds: 0,
            spentSeconds: vice * 900, endingBalanceSeconds: 0, overdraftSeconds: vice * 900, streakAfter: 0)
    }

    private static let manager = StreakManager(trackingStart: start)

    // MARK: Hand-made histories

    @Test func overTheGoalResetsAndAtTheGoalKeeps() {
        let records = [
            Self.record(0, vice: 3), Self.record(1, vice: 9), Self.record(2, vice: 8), Self.record(4, vice: 2),
        ]
        // Day 3 has no record: no usage, kept.
        let streaks = Self.manager.streaks(records: records, through: Self.day(4))
        #expect(streaks.map(\.date) == (0...4).map(Self.day))
        #expect(streaks.map(\.streak) == [1, 0, 1, 2, 3])
        #expect(Self.manager.summary(records: records, through: Self.day(4)) == .init(current: 3, best: 3))
    }

    @Test func aDayOverTheGoalAtTheEndLeavesZero() {
        let records = [Self.record(0, vice: 1), Self.record(1, vice: 2), Self.record(2, vice: 9)]
        #expect(Self.manager.summary(records: records, through: Self.day(2)) == .init(current: 0, best: 2))
    }

    @Test func missingDaysCountAsKept() {
        #expect(Self.manager.summary(records: [], through: Self.day(6)) == .init(current: 7, best: 7))
        let records = [Self.record(0, vice: 20), Self.record(10, vice: 20)]
        #expect(Self.manager.summary(records: records, through: Self.day(9)) == .init(current: 9, best: 9))
        #expect(Self.manager.summary(records: records, through: Self.day(12)) == .init(current: 2, best: 9))
    }

    @Test func bestIsTheLongestRun() {
        // Five kept days, a failure, two kept days.
        let records = (0..<8).map { Self.record($0, vice: $0 == 5 ? 12 : 4) }
        let summary = Self.manager.summary(records: records, through: Self.day(7))
        #expect(summary == .init(current: 2, best: 5))
    }

    @Test func eachDayIsJudgedAgainstItsOwnGoal() {
        let records = [
            Self.record(0, vice: 9, goal: 10), Self.record(1, vice: 9, goal: 8), Self.record(2, vice: 4, goal: 4),
        ]
        #expect(Self.manager.streaks(records: records, through: Self.day(2)).map(\.streak) == [1, 0, 1])
    }

    @Test func daysBeforeTrackingStartAreIgnored() {
        let records = [
            Self.record(-3, vice: 30), Self.record(-1, vice: 30), Self.record(0, vice: 1), Self.record(1, vice: 1),
        ]
        let streaks = Self.manager.streaks(records: records, through: Self.day(1))
        #expect(streaks.first?.date == Self.start)
        #expect(streaks.map(\.streak) == [1, 2])
        #expect(Self.manager.summary(records: records, through: Self.day(1)) == .init(current: 2, best: 2))
    }

    @Test func daysAfterTheLastFinishedDayAreIgnored() {
        let records = [Self.record(0, vice: 1), Self.record(1, vice: 1), Self.record(2, vice: 30)]
        #expect(Self.manager.summary(records: records, through: Self.day(1)) == .init(current: 2, best: 2))
    }

    @Test func nothingFinishedYet() {
        #expect(Self.manager.streaks(records: [Self.record(0, vice: 1)], through: Self.day(-1)).isEmpty)
        #expect(Self.manager.summary(records: [], through: Self.day(-1)) == .init(current: 0, best: 0))
        #expect(
            Self.manager.summary(records: [Self.record(0, vice: 1)], through: Self.day(0)) == .init(current: 1, best: 1)
        )
    }

    @Test func withStreaksFillsStreakAfter() {
        let records = [
            Self.record(2, vice: 9), Self.record(0, vice: 3), Self.record(3, vice: 1), Self.record(-1, vice: 1),
        ]
        let filled = Self.manager.withStreaks(records, through: Self.day(3))
        // Same records in the same order, each with its streak; days outside the range get 0.
        #expect(filled.map(\.date) == records.map(\.date))
        #expect(filled.map(\.streakAfter) == [0, 1, 1, 0])
        #expect(filled.map(\.viceBlocks) == records.map(\.viceBlocks))
    }

    @Test func dayRecordKeptLimit() {
        #expect(Self.record(0, vice: 8, goal: 8).keptLimit)
        #expect(Self.record(0, vice: 0, goal: 8).keptLimit)
        #expect(!Self.record(0, vice: 9, goal: 8).keptLimit)
    }

    @Test func dayRecordFromALedger() {
        let base = Date(timeIntervalSince1970: 1_795_250_000)
        let events = (0..<3).map {
            UsageEvent(
                id: UUID(), appID: "x", category: .vice, seconds: 900, occurredAt: base.addingTimeInterval(Double($0)))
        }
        let record = DayRecord(date: Self.start, ledger: DailyLedger.fold(events, exchangeRate: 1), goalBlocks: 2)
        #expect(record.viceBlocks == 3)
        #expect(record.spentSeconds == 2700)
        #expect(record.overdraftSeconds == 2700)
        #expect(record.streakAfter == 0)
        #expect(!record.synced)
        #expect(!record.keptLimit)
    }

    // MARK: Today's status

    @Test(arguments: [
        (LimitState.under, StreakManager.TodayStatus.onTrack), (.warning, .atRisk), (.critical, .atRisk),
        (.over, .brokenToday),
    ])
    func todayStatusMapping(_ state: LimitState, _ status: StreakManager.TodayStatus) {
        #expect(StreakManager.TodayStatus(state) == status)
    }

    @Test func todayStatusTexts() {
        #expect(StreakManager.TodayStatus.onTrack.rawValue == "on track")
        #expect(StreakManager.TodayStatus.atRisk.rawValue == "at risk")
        #expect(StreakManager.TodayStatus.brokenToday.rawValue == "broken today")
    }

    @Test func todaySummaryStatusFollowsTheBlocks() {
        let base = Date(timeIntervalSince1970: 1_795_250_000)
        func summary(vice: Int) -> TodaySummary {
            let events = (0..<vice).map {
                UsageEvent(
                    id: UUID(), appID: "x", category: .vice, seconds: 900,
                    occurredAt: base.addingTimeInterval(Double($0)))
            }
            return TodaySummary(
                date: Self.start, ledger: DailyLedger.fold(events, exchangeRate: 1), goal: 8,
                streak: .init(current: 3, best: 5), nextReset: base)
        }
        #expect(summary(vice: 5).todayStatus == .onTrack)
        #expect(summary(vice: 6).todayStatus == .atRisk)
        #expect(summary(vice: 8).todayStatus == .atRisk)
        #expect(summary(vice: 8).state == .critical)
        #expect(summary(vice: 9).todayStatus == .brokenToday)
        #expect(summary(vice: 9).progress.blocksUsed == 9)
    }

    // MARK: Properties

    /// A history: for each day offset 0..<40 maybe a record (vice 0…12 against goal 1…10).
    private static let historyGen = Generator<[DayRecord], Shrink.None<[DayRecord]>> { rng in
        (-5..<40).compactMap { offset -> DayRecord? in
            guard Int.random(in: 0...3, using: &rng) > 0 else { return nil }
            return record(offset, vice: Int.random(in: 0...12, using: &rng), goal: Int.random(in: 1...10, using: &rng))
        }
    }

    @Test func currentIsTheRunOfKeptDaysEndingAtLastFinished() async {
        await propertyCheck(count: 200, input: Self.historyGen, Gen.int(in: -2...45)) { records, last in
            let lastFinished = Self.day(last)
            let summary = Self.manager.summary(records: records, through: lastFinished)
            #expect(summary.current <= summary.best)
            #expect(summary.current >= 0)
            // Walk back from the last finished day, counting kept days (missing = kept).
            let byDay = Dictionary(uniqueKeysWithValues: records.map { ($0.date, $0) })
            var run = 0
            var day = lastFinished
            while day >= Self.start, byDay[day].map(\.keptLimit) ?? true {
                run += 1
                day = day.adding(days: -1)
            }
            #expect(summary.current == run)
            // Best is the longest run of kept days inside the tracked range.
            var best = 0
            var current = 0
            if lastFinished >= Self.start {
                for offset in 0...Self.start.days(to: lastFinished) {
                    current = (byDay[Self.day(offset)]?.keptLimit ?? true) ? current + 1 : 0
                    best = max(best, current)
                }
            }
            #expect(summary.best == best)
        }
    }

    @Test func streaksStepByOneOrResetAndIgnoreRecordOrder() async {
        let input = zip(Self.historyGen, Gen.int(in: -2...45), Gen.int(in: 0...Int(UInt32.max)))
        await propertyCheck(count: 200, input: input) { records, last, seed in
            let lastFinished = Self.day(last)
            let streaks = Self.manager.streaks(records: records, through: lastFinished)
            #expect(streaks.count == max(0, Self.start.days(to: lastFinished) + 1))
            var previous = 0
            for (index, entry) in streaks.enumerated() {
                #expect(entry.date == Self.day(index))
                #expect(entry.streak == previous + 1 || entry.streak == 0)
                let record = records.first { $0.date == entry.date }
                #expect((entry.streak == 0) == (record.map { !$0.keptLimit } ?? false))
                previous = entry.streak
            }
            var generator = SeededGenerator(seed: UInt64(seed))
            let shuffled = records.shuffled(using: &generator)
            #expect(
                Self.manager.summary(records: shuffled, through: lastFinished)
                    == Self.manager.summary(records: records, through: lastFinished))
        }
    }
}
