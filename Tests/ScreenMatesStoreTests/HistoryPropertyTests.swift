import Foundation
import GRDB
import PropertyBased
import ScreenMatesCore
import ScreenMatesStore
import Testing

/// The history as a function of the events: whatever events arrive, and however the resets
/// fall, each finished day has exactly one record, and its figures are the events of its
/// instants folded again; a record that is lost comes back the same.
@Suite struct HistoryPropertyTests {
    static let calendar = DayCalendar(timeZone: Fixtures.utc, dayStartHour: 0)
    static let start = LocalDate(iso8601: "2026-11-01")!

    /// A usage event of one of three apps within the first 6 days (or the 7th, today).
    static let eventGen = Generator<UsageEvent, Shrink.None<UsageEvent>> { rng in
        var ids = SeededGenerator(seed: rng.next())
        let vice = Bool.random(using: &rng)
        let minute = Int.random(in: 0..<(7 * 24 * 60), using: &rng)
        return UsageEvent(
            id: ids.uuid(), appID: vice ? ["tiktok", "youtube"].randomElement(using: &rng)! : "kindle",
            category: vice ? .vice : .productive, seconds: [300, 900, 1800].randomElement(using: &rng)!,
            occurredAt: calendar.start(of: start).addingTimeInterval(TimeInterval(minute * 60)))
    }

    /// Events, the days on which resets run (ascending, the last one the 7th day), and the
    /// records deleted afterwards.
    static let scenarioGen = Generator<([UsageEvent], [Int], Set<Int>), Shrink.None<([UsageEvent], [Int], Set<Int>)>> {
        rng in
        let events = (0..<Int.random(in: 0...60, using: &rng)).map { _ in eventGen.run(using: &rng) }
        let resets = (1...5).filter { _ in Bool.random(using: &rng) } + [6]
        let lost = Set((0..<6).filter { _ in Int.random(in: 0...3, using: &rng) == 0 })
        return (events, resets, lost)
    }

    /// The events fold into their day's record: blocks, earned, spent, balance, overdraft.
    private func expectRecords(
        _ records: [DayRecord], match events: [UsageEvent], goal: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            records.map(\.date) == (0..<6).map { Self.start.adding(days: $0) }, "one record a day",
            sourceLocation: sourceLocation)
        for record in records {
            let interval = Self.calendar.interval(of: record.date)
            #expect(record.interval == interval, sourceLocation: sourceLocation)
            let mine = events.filter { interval.contains($0.occurredAt) }
            let ledger = DailyLedger.fold(mine, exchangeRate: 1.5)
            #expect(record.viceBlocks == mine.filter { $0.category == .vice }.count, sourceLocation: sourceLocation)
            #expect(
                record.productiveBlocks == mine.filter { $0.category == .productive }.count,
                sourceLocation: sourceLocation)
            #expect(
                record.spentSeconds == mine.filter { $0.category == .vice }.reduce(0) { $0 + $1.seconds },
                sourceLocation: sourceLocation)
            #expect(record.earnedSeconds == ledger.earnedSeconds, sourceLocation: sourceLocation)
            #expect(record.endingBalanceSeconds == ledger.balanceSeconds, sourceLocation: sourceLocation)
            #expect(record.overdraftSeconds == ledger.overdraftSeconds, sourceLocation: sourceLocation)
            #expect(record.goalBlocks == goal, sourceLocation: sourceLocation)
        }
        let streaks = StreakManager(trackingStart: Self.start).withStreaks(records, through: Self.start.adding(days: 5))
        #expect(records.map(\.streakAfter) == streaks.map(\.streakAfter), sourceLocation: sourceLocation)
    }

    @Test func historyRowsMatchTheEventsTheyCameFrom() async {
        await propertyCheck(count: 60, input: Self.scenarioGen) { events, resets, lost in
            let directory = TemporaryDirectory()
            let store = try Fixtures.store(in: directory, start: Self.start.iso8601, goal: 3)
            var settings = try #require(try store.settings())
            settings.rules.exchangeRate = 1.5
            try store.updateSettings(settings)
            _ = try store.rollOver(clockDay: Self.start, calendar: Self.calendar)
            // Events arrive in their time order, with a reset on each chosen day; those for a day
            // already archived arrive late, after the reset, as from a monitor catching up.
            let sorted = events.sorted(by: UsageEvent.inLedgerOrder)
            var delivered = 0
            for day in resets {
                let resetAt = Self.calendar.start(of: Self.start.adding(days: day))
                let due = sorted[delivered...].prefix { $0.occurredAt < resetAt }
                try store.record(Array(due))
                delivered += due.count
                _ = try store.rollOver(clockDay: Self.start.adding(days: day), calendar: Self.calendar)
            }
            try store.record(Array(sorted[delivered...]))
            _ = try store.rollOver(clockDay: Self.start.adding(days: resets.last ?? 0), calendar: Self.calendar)
            let history = try store.history()
            expectRecords(history, match: events, goal: 3)

            // Records deleted by hand come back, the same, at the next reset.
            let pool = try DatabasePool(path: directory.databasePath)
            try pool.write { db in
                for day in lost {
                    try db.execute(
                        sql: "DELETE FROM day_history WHERE date = ?", arguments: [Self.start.adding(days: day).iso8601]
                    )
                }
            }
            let outcome = try store.rollOver(clockDay: Self.start.adding(days: 6), calendar: Self.calendar)
            #expect(Set(outcome.revised.map(\.date)) == Set(lost.map { Self.start.adding(days: $0) }))
            let rebuilt = try store.history()
            expectRecords(rebuilt, match: events, goal: 3)
            func figures(_ records: [DayRecord]) -> [DayRecord] {
                records.map {
                    var record = $0
                    record.synced = false
                    return record
                }
            }
            #expect(figures(rebuilt) == figures(history))
        }
    }

    /// Usage dated before a home's first day counts exactly as if the home had started on the
    /// day of its earliest event: the same records, intervals and streaks, whichever part of it
    /// arrives before or after a reset; and a reader that may not write works the same days out.
    @Test func usageBeforeTheFirstDayCountsAsIfTheHomeHadStartedThen() async {
        await propertyCheck(count: 40, input: Self.scenarioGen) { events, resets, _ in
            let lateStart = Self.start.adding(days: 4)
            let earliest = events.map { Self.calendar.day(containing: $0.occurredAt) }.min() ?? lateStart
            let trueStart = min(earliest, lateStart)
            let late = TemporaryDirectory()
            let lateStore = try Fixtures.store(in: late, start: lateStart.iso8601, goal: 3)
            let early = TemporaryDirectory()
            let earlyStore = try Fixtures.store(in: early, start: trueStart.iso8601, goal: 3)
            let sorted = events.sorted(by: UsageEvent.inLedgerOrder)
            let half = sorted.count / 2
            for store in [lateStore, earlyStore] {
                try store.record(Array(sorted[..<half]))
                _ = try store.rollOver(
                    clockDay: Self.start.adding(days: max(4, resets.first ?? 4)), calendar: Self.calendar)
            }
            try lateStore.record(Array(sorted[half...]))
            let startBefore = try #require(try lateStore.dayState()).trackingStart
            let derived = try lateStore.earlierDays(calendar: Self.calendar)
            try earlyStore.record(Array(sorted[half...]))
            for store in [lateStore, earlyStore] {
                _ = try store.rollOver(clockDay: Self.start.adding(days: 6), calendar: Self.calendar)
            }
            let history = try lateStore.history()
            #expect(history == (try earlyStore.history()))
            #expect(try lateStore.dayState()?.trackingStart == trueStart)
            // The reader's days are the ones the next reset recorded, figure for figure.
            func figures(_ records: [DayRecord]) -> [DayRecord] {
                records.map { record in
                    var record = record
                    record.streakAfter = 0
                    record.synced = false
                    return record
                }
            }
            #expect(figures(derived?.records ?? []) == figures(history.filter { $0.date < startBefore }))
            #expect((derived?.trackingStart ?? startBefore) == trueStart)
        }
    }
}
