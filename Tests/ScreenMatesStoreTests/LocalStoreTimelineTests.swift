import Foundation
import ScreenMatesCore
import ScreenMatesStore
import Testing

/// Where a home's data reaches (no clock may start before it), a demo's fresh start, and usage
/// dated before the first tracked day.
@Suite struct LocalStoreTimelineTests {
    let calendar = DayCalendar(timeZone: Fixtures.utc)

    @Test func aNewHomeReachesTheStartOfItsFirstDay() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-21")
        #expect(try store.latestInstant(calendar: calendar) == Fixtures.instant("2026-11-21T00:00"))
        let owl = DayCalendar(timeZone: Fixtures.utc, dayStartHour: 4)
        #expect(try store.latestInstant(calendar: owl) == Fixtures.instant("2026-11-21T04:00"))
    }

    @Test func theNewestEventNoticeOrResetSetsTheReach() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-21")
        try store.record([Fixtures.event(.vice, at: "2026-11-21T18:30")])
        #expect(try store.latestInstant(calendar: calendar) == Fixtures.instant("2026-11-21T18:30"))
        let day = LocalDate(iso8601: "2026-11-21")!
        _ = try store.claim(
            deliver: [Notice(kind: .test, day: day, title: "Test notice", body: "")], countAsSent: [],
            at: Fixtures.instant("2026-11-21T20:00"))
        #expect(try store.latestInstant(calendar: calendar) == Fixtures.instant("2026-11-21T20:00"))
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-23")!, calendar: calendar)
        #expect(try store.latestInstant(calendar: calendar) == Fixtures.instant("2026-11-23T00:00"))
    }

    @Test func aHomeWithoutAProfileReachesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try LocalStore.open(at: directory.databasePath)
        #expect(try store.latestInstant(calendar: calendar) == nil)
    }

    /// A demo starts afresh: its usage, history, notices and clock go, its days begin again,
    /// and the person the first run set up stays.
    @Test func startingAfreshKeepsTheProfileAndForgetsTheDays() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-21", goal: 5)
        try store.setDisplayName(try DisplayName(validating: "ana"))
        let code = try GroupCode(validating: "ABC234")
        try store.setGroup(GroupMembership(code: code, dailyGoalBlocks: 6))
        let version = try store.nextMemberVersion()
        try store.record([Fixtures.event(.vice, at: "2026-11-21T18:30"), Fixtures.event(.vice, at: "2026-11-22T10:00")])
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-23")!, calendar: calendar)
        let day = LocalDate(iso8601: "2026-11-21")!
        _ = try store.claim(
            deliver: [Notice(kind: .test, day: day, title: "Test notice", body: "")], countAsSent: [],
            at: Fixtures.instant("2026-11-21T20:00"))
        try store.publishClock(
            ClockPublication(origin: Date(), realAnchor: Date(), speed: 60, pid: 1, processStart: nil))
        let before = try #require(try store.settings())

        try store.startAfresh(trackingStart: day)

        #expect(try store.settings() == before, "name, apps, goal, group: all kept")
        #expect(try store.eventCount() == 0)
        #expect(try store.history().isEmpty)
        #expect(try store.shownNotices().isEmpty)
        #expect(try store.publishedClock() == nil)
        let state = try #require(try store.dayState())
        #expect(state.trackingStart == day && state.lastReset == day && state.lastResetAt == nil)
        #expect(try store.latestInstant(calendar: calendar) == Fixtures.instant("2026-11-21T00:00"))
        #expect(try store.nextMemberVersion() == version + 1, "the member version goes on")
    }

    /// Usage dated before the first tracked day (a monitor catching up, an import) creates the
    /// days it belongs to; days between it and the first day count as days without usage.
    @Test func usageBeforeTheFirstDayCreatesItsDays() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-23", goal: 2)
        try store.record((0..<3).map { Fixtures.event(.vice, at: "2026-11-20T1\($0):00") })
        try store.record([Fixtures.event(.productive, at: "2026-11-21T09:00")])
        // A reader that may not write works the days out; nothing is written yet.
        let derived = try #require(try store.earlierDays(calendar: calendar))
        #expect(derived.trackingStart == LocalDate(iso8601: "2026-11-20"))
        #expect(derived.records.map(\.date.iso8601) == ["2026-11-20", "2026-11-21", "2026-11-22"])
        #expect(derived.records.map(\.viceBlocks) == [3, 0, 0])
        #expect(try store.history().isEmpty)

        let outcome = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-23")!, calendar: calendar)
        #expect(outcome.archived.isEmpty, "no reset was due")
        let history = try store.history()
        #expect(history.map(\.date.iso8601) == ["2026-11-20", "2026-11-21", "2026-11-22"])
        #expect(history.map(\.viceBlocks) == [3, 0, 0])
        #expect(history.map(\.productiveBlocks) == [0, 1, 0])
        #expect(history.map(\.streakAfter) == [0, 1, 2], "over the limit, then two days kept")
        #expect(history.map(\.interval) == derived.records.map(\.interval))
        #expect(history.last?.interval?.upperBound == Fixtures.instant("2026-11-23T00:00"), "up to the first day")
        #expect(try store.dayState()?.trackingStart == LocalDate(iso8601: "2026-11-20"))
        #expect(try store.earlierDays(calendar: calendar) == nil, "nothing earlier is left")
        // Today, the first tracked day, is untouched: still today, nothing archived for it.
        #expect(try store.dayState()?.lastReset == LocalDate(iso8601: "2026-11-23"))
    }

    /// Past the first day's reset too: the earlier days end where the archived first day began.
    @Test func usageBeforeAnArchivedFirstDayEndsWhereThatDayBegan() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-22", goal: 8)
        try store.record([Fixtures.event(.vice, at: "2026-11-22T10:00")])
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-24")!, calendar: calendar)
        try store.record([Fixtures.event(.vice, at: "2026-11-21T23:59")])
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-24")!, calendar: calendar)
        let history = try store.history()
        #expect(history.map(\.date.iso8601) == ["2026-11-21", "2026-11-22", "2026-11-23"])
        #expect(history.map(\.viceBlocks) == [1, 1, 0])
        #expect(history[0].interval?.upperBound == history[1].interval?.lowerBound)
        #expect(history.map(\.streakAfter) == [1, 2, 3])
    }
}
