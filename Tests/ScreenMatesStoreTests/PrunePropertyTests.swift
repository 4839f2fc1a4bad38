import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesStore
import Testing

/// Pruning changes no figure: over random histories, a home pruned and the same home not pruned
/// give the same day rows (blocks, balance, streaks), the same blocks and seconds per app each day,
/// the same event count and last activity; every event delivered again is refused, a new event
/// dated in a pruned day too, and `recover` keeps the pruned days.
@Suite struct PrunePropertyTests {
    static let calendar = DayCalendar(timeZone: Fixtures.utc, dayStartHour: 0)
    static let start = LocalDate(iso8601: "2026-10-01")!
    static let days = 20
    static let today = start.adding(days: days)

    /// A usage event of one of three apps within the first 20 days.
    static let eventGen = Generator<UsageEvent, Shrink.None<UsageEvent>> { rng in
        var ids = SeededGenerator(seed: rng.next())
        let vice = Bool.random(using: &rng)
        let minute = Int.random(in: 0..<(days * 24 * 60), using: &rng)
        return UsageEvent(
            id: ids.uuid(), appID: vice ? ["tiktok", "youtube"].randomElement(using: &rng)! : "kindle",
            category: vice ? .vice : .productive, seconds: [300, 900, 1800].randomElement(using: &rng)!,
            occurredAt: calendar.start(of: start).addingTimeInterval(TimeInterval(minute * 60)))
    }

    /// A home with `events`, reset through `today`.
    static func home(_ events: [UsageEvent], in directory: TemporaryDirectory) throws -> LocalStore {
        let store = try Fixtures.store(in: directory, start: start.iso8601, goal: 3)
        try store.record(events)
        _ = try store.rollOver(clockDay: today, calendar: calendar)
        return store
    }

    /// Each day's blocks and seconds per app, from its events and (pruned) its summary.
    static func appUsage(_ store: LocalStore, _ record: DayRecord) throws -> [String: [Int]] {
        var totals: [String: [Int]] = [:]
        for event in try store.events(in: record.interval ?? calendar.interval(of: record.date)) {
            let key = "\(event.category.rawValue) \(event.appID)"
            totals[key] = [(totals[key]?[0] ?? 0) + 1, (totals[key]?[1] ?? 0) + event.seconds]
        }
        for usage in try store.prunedAppUsage(on: record.date) {
            let key = "\(usage.category.rawValue) \(usage.appID)"
            totals[key] = [(totals[key]?[0] ?? 0) + usage.blocks, (totals[key]?[1] ?? 0) + usage.seconds]
        }
        return totals
    }

    @Test func pruningChangesNoFigure() async {
        let scenario = Generator<[UsageEvent], Shrink.None<[UsageEvent]>> { rng in
            (0..<Int.random(in: 0...120, using: &rng)).map { _ in Self.eventGen.run(using: &rng) }
        }
        await propertyCheck(count: 40, input: scenario, Gen.int(in: 7...15)) { events, keepDays in
            let plain = TemporaryDirectory()
            let pruned = TemporaryDirectory()
            let reference = try Self.home(events, in: plain)
            // The pruned home's store is closed at the end of this scope, before `recover`.
            do {
                let store = try Self.home(events, in: pruned)
                let report = try store.prune(keepDays: keepDays, today: Self.today, calendar: Self.calendar)
                let horizon = Self.today.adding(days: -keepDays)
                #expect(report.days == (0..<Self.start.days(to: horizon)).map { Self.start.adding(days: $0) })
                #expect(report.keptFrom == horizon)
                let prunedEvents = events.filter { $0.occurredAt < Self.calendar.start(of: horizon) }
                #expect(report.events == prunedEvents.count)
                #expect(try store.eventCount() == events.count - prunedEvents.count)

                func same() throws {
                    let history = try store.history()
                    #expect(history == (try reference.history()))
                    for record in history {
                        #expect(
                            try Self.appUsage(store, record) == (try Self.appUsage(reference, record)), "\(record.date)"
                        )
                    }
                    let todayInterval = Self.calendar.interval(of: Self.today)
                    let mine = try store.snapshot(of: todayInterval)
                    let theirs = try reference.snapshot(of: todayInterval)
                    #expect(mine.eventCount == theirs.eventCount)
                    #expect(mine.lastOccurredAt == theirs.lastOccurredAt)
                }
                try same()

                // Everything delivered again is refused, and so is a new event dated in a pruned day.
                #expect(try store.record(events) == 0)
                if horizon > Self.start {
                    let late = Fixtures.event(.vice, at: "2026-10-01T12:00:00Z")
                    #expect(try store.record([late]) == 0)
                }
                _ = try store.rollOver(clockDay: Self.today, calendar: Self.calendar)
                try same()

                // Pruning again finds nothing more to do.
                #expect(try store.prune(keepDays: keepDays, today: Self.today, calendar: Self.calendar).days.isEmpty)
            }

            // `recover` carries the pruned days over: nothing lost, the same rows.
            let recovered = try StoreRecovery.recover(
                at: pruned.databasePath, clock: ManualClock(Self.calendar.start(of: Self.today)),
                timeZone: Fixtures.utc)
            #expect(recovered.eventsLost == 0, "\(recovered) pruned \(events.count) events")
            let reopened = try LocalStore.open(at: pruned.databasePath)
            #expect(try reopened.history() == (try reference.history()))
            #expect(try reopened.record(events) == 0)
        }
    }

    @Test func aPruneKeepsAtLeastSevenDaysAndNeverAnUnarchivedOne() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: Self.start.iso8601, goal: 3)
        try store.record([Fixtures.event(.vice, at: "2026-10-02T10:00:00Z")])
        #expect(throws: StoreError.self) {
            try store.prune(keepDays: 6, today: Self.today, calendar: Self.calendar)
        }
        // Nothing archived yet: nothing to prune, whatever the days asked for.
        #expect(try store.prune(keepDays: 7, today: Self.today, calendar: Self.calendar).days.isEmpty)
        #expect(try store.eventCount() == 1)
    }
}
