import Foundation
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

@Suite struct LocalStoreHistoryTests {
    let calendar = DayCalendar(timeZone: Fixtures.utc, dayStartHour: 0)

    @Test func theFirstRolloverOnlyRecordsTheResetDate() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-21")
        let outcome = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar)
        #expect(outcome.archived.isEmpty)
        #expect(try store.dayState()?.lastReset == LocalDate(iso8601: "2026-11-21"))
    }

    @Test func aResetArchivesEachFinishedDayExactlyOnce() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-18")
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-18")!, calendar: calendar)
        try store.record((0..<9).map { Fixtures.event(.vice, at: "2026-11-18T1\($0):00") })
        try store.record([Fixtures.event(.vice, at: "2026-11-19T10:00")])
        let day = LocalDate(iso8601: "2026-11-21")!
        let first = try store.rollOver(clockDay: day, calendar: calendar)
        #expect(first.archived.map(\.date.iso8601) == ["2026-11-18", "2026-11-19", "2026-11-20"])
        #expect(first.archived.map(\.viceBlocks) == [9, 1, 0])
        #expect(first.archived.map(\.streakAfter) == [0, 1, 2])
        let again = try store.rollOver(clockDay: day, calendar: calendar)
        #expect(again.archived.isEmpty)
        #expect(try store.history().count == 3)
    }

    @Test func theFirstResetRunningDaysAfterSetupArchivesEveryDaySinceTrackingBegan() throws {
        // Set up on Nov 18, used only by a monitor, first looked at on Nov 21.
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-18", goal: 2)
        try store.record((0..<3).map { Fixtures.event(.vice, at: "2026-11-18T1\($0):00") })
        let outcome = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar)
        #expect(outcome.archived.map(\.date.iso8601) == ["2026-11-18", "2026-11-19", "2026-11-20"])
        #expect(outcome.archived.map(\.streakAfter) == [0, 1, 2])
    }

    @Test func twoProcessesResettingAtOnceArchiveOnce() async throws {
        let directory = TemporaryDirectory()
        let setup = try Fixtures.store(in: directory, start: "2026-11-01")
        _ = try setup.rollOver(clockDay: LocalDate(iso8601: "2026-11-01")!, calendar: calendar)
        let path = directory.databasePath
        let calendar = self.calendar
        let archivedCounts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let store = try LocalStore.open(at: path)
                    return try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar).archived
                        .count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(archivedCounts.sorted() == [0, 0, 0, 20])
        #expect(try setup.history().count == 20)
    }

    @Test func aClockBehindTheLastResetArchivesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-20")
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar)
        let outcome = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-20")!, calendar: calendar)
        #expect(outcome.archived.isEmpty)
        #expect(outcome.clockIsBehind)
        #expect(try store.dayState()?.lastReset == LocalDate(iso8601: "2026-11-21"))
    }

    @Test func aLateEventDerivesItsArchivedDayAgainAndTheStreaksAfterIt() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-19", goal: 2)
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-19")!, calendar: calendar)
        try store.record([Fixtures.event(.vice, at: "2026-11-19T10:00"), Fixtures.event(.vice, at: "2026-11-19T11:00")])
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar)
        #expect(try store.history().map(\.streakAfter) == [1, 2])
        try store.markSynced([LocalDate(iso8601: "2026-11-19")!])
        try store.record([Fixtures.event(.vice, at: "2026-11-19T23:00")])
        // The same day's clock: no reset is due, but the late event is counted.
        let changed = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar).revised
        #expect(changed.map(\.viceBlocks) == [3])
        let history = try store.history()
        #expect(history.map(\.streakAfter) == [0, 1])
        #expect(history[0].synced == false)
        #expect(try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar).revised.isEmpty)
    }

    @Test func aLateEventIsCountedByTheNextResetEvenWithoutADashboardRunning() throws {
        // Nov 20 archived with nothing; then a monitor writes five blocks for Nov 20 while no
        // dashboard runs. The next reset, whoever runs it, counts them.
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-20", goal: 2)
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-21")!, calendar: calendar)
        try store.record((0..<5).map { Fixtures.event(.vice, at: "2026-11-20T1\($0):00") })
        let outcome = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-22")!, calendar: calendar)
        #expect(outcome.revised.map(\.viceBlocks) == [5])
        #expect(try store.history().map(\.viceBlocks) == [5, 0])
        #expect(try store.history().map(\.streakAfter) == [0, 1])
    }

    @Test func archivedDaysMeetEndToEndAcrossATimeZoneChange() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-19")
        let berlin = DayCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let losAngeles = DayCalendar(timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-20")!, calendar: berlin)
        _ = try store.rollOver(clockDay: LocalDate(iso8601: "2026-11-22")!, calendar: losAngeles)
        let intervals = try store.history().compactMap(\.interval)
        #expect(intervals.count == 3)
        for (earlier, later) in zip(intervals, intervals.dropFirst()) {
            #expect(earlier.upperBound == later.lowerBound)
        }
        #expect(try store.dayState()?.lastResetAt == intervals.last?.upperBound)
    }

    @Test func settingsRoundTrip() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        var settings = try #require(try store.settings())
        settings.displayName = try DisplayName(validating: "ana")
        settings.dayStartHour = 4
        settings.rules = UsageRules(blockMinutes: 10, exchangeRate: 1.5, dailyGoalBlocks: 6)
        settings.notificationsEnabled = false
        settings.apps[0].hidden = true
        try store.updateSettings(settings)
        #expect(try LocalStore.open(at: directory.databasePath).settings() == settings)
    }

    @Test func outOfRangeSettingsAreRefused() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        var settings = try #require(try store.settings())
        settings.dayStartHour = 24
        #expect(throws: StoreError.self) { try store.updateSettings(settings) }
        #expect(try store.settings()?.dayStartHour == 0)
    }

    @Test func theProfileIsCreatedOnce() throws {
        let directory = TemporaryDirectory()
        let store = try LocalStore.open(at: directory.databasePath)
        let first = try store.createProfileIfNeeded(
            userID: "first234", trackingStart: LocalDate(iso8601: "2026-11-01")!, apps: [])
        let second = try store.createProfileIfNeeded(
            userID: "second23", trackingStart: LocalDate(iso8601: "2026-11-05")!, apps: Fixtures.apps)
        #expect(first.userID == UserID("first234"))
        #expect(second.userID == UserID("first234"))
        #expect(try store.dayState()?.trackingStart == LocalDate(iso8601: "2026-11-01"))
    }

    @Test func aPublishedClockRoundTripsAndIsWithdrawnOnlyByItsOwner() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        let publication = ClockPublication(
            origin: Fixtures.instant("2026-11-21T21:00"), realAnchor: Date(timeIntervalSince1970: 1_800_000_000),
            speed: 60, pid: 4242, processStart: "123456")
        try store.publishClock(publication)
        #expect(try store.publishedClock() == publication)
        #expect(
            publication.appTime(atReal: Date(timeIntervalSince1970: 1_800_000_010))
                == Fixtures.instant("2026-11-21T21:10"))
        try store.withdrawClock(pid: 1)
        #expect(try store.publishedClock() != nil)
        try store.withdrawClock(pid: 4242)
        #expect(try store.publishedClock() == nil)
    }
}
