import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesHomeTestSupport
import ScreenMatesStore
import Testing

/// The daily reset as a person lives it: the dashboard (the feed) running while the clock,
/// the time zone and the events move. Each ends with the exact streak expected.
@Suite struct RolloverScenarioTests {
    @Test func aUSSpringForwardDayIsOneDayAndCountsItsOwnBlocks() throws {
        // 2026-03-08 in New York is 23 hours long (02:00 EST jumps to 03:00 EDT).
        let s = try Scenario(timeZone: "America/New_York", start: "2026-03-06T09:00", trackingStart: "2026-03-06")
        try s.vice(3, endingAt: "2026-03-06T20:00")
        try s.vice(8, endingAt: "2026-03-07T21:00")
        s.setClock("2026-03-07T22:00")
        #expect(try s.read().summary.date.iso8601 == "2026-03-07")
        // The DST day: 9 blocks, over the goal, on both sides of the gap and up to 23:59 EDT.
        try s.vice(4, endingAt: "2026-03-08T01:59")
        try s.vice(4, endingAt: "2026-03-08T04:00")
        try s.vice(1, endingAt: "2026-03-08T23:59")
        s.setClock("2026-03-08T23:59:30")
        #expect(try s.read().summary.progress.blocksUsed == 9)
        #expect(s.feed.summary.nextReset == s.instant("2026-03-09T00:00"))
        #expect(s.feed.summary.nextReset.timeIntervalSince(s.instant("2026-03-08T00:00")) == 23 * 3600)
        try s.vice(2, endingAt: "2026-03-09T00:30")
        s.setClock("2026-03-09T00:45")
        try s.read()
        #expect(s.feed.summary.progress.blocksUsed == 2)
        #expect(s.history.map(\.viceBlocks) == [3, 8, 9])
        #expect(s.history.map(\.streakAfter) == [1, 2, 0])
        #expect(s.streak == .init(current: 0, best: 2))
        s.setClock("2026-03-10T08:00")
        try s.read()
        #expect(s.streak == .init(current: 1, best: 2))
    }

    @Test func aUSFallBackDayWithA1AMDayStartIsOneDayOf25Hours() throws {
        // 2026-11-01 in New York: 01:00–02:00 happens twice. With the day starting at 1 am,
        // the day starts at the first 01:00 and lasts 25 hours.
        let s = try Scenario(
            timeZone: "America/New_York", start: "2026-10-31T12:00", trackingStart: "2026-10-31", goal: 2,
            dayStartHour: 1)
        let calendar = s.feed.calendar
        let day = LocalDate(iso8601: "2026-11-01")!
        let interval = calendar.interval(of: day)
        #expect(interval.upperBound.timeIntervalSince(interval.lowerBound) == 25 * 3600)
        // 05:30Z is 01:30 EDT (first pass), 06:30Z is 01:30 EST (second pass): both Nov 1.
        try s.store.record(
            ["2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T05:59:00Z"].map {
                UsageEvent(id: UUID(), appID: "tiktok", category: .vice, seconds: 900, occurredAt: s.instant($0))
            })
        s.setClock("2026-11-02T01:00")
        try s.read()
        #expect(s.history.first { $0.date == day }?.viceBlocks == 3)
        #expect(s.streak == .init(current: 0, best: 1))
    }

    @Test func aTimeZoneChangeNeverResetsTwiceAndCountsTheNewDays() throws {
        let s = try Scenario(timeZone: "Europe/Berlin", start: "2026-11-18T09:00", trackingStart: "2026-11-18")
        try s.vice(9, endingAt: "2026-11-18T22:00")
        try s.vice(2, endingAt: "2026-11-19T22:00")
        s.setClock("2026-11-20T07:00")
        try s.read()
        #expect(s.streak == .init(current: 1, best: 1))
        // Fly west: 07:00 Berlin is 22:00 the day before in Los Angeles. The clock's day is
        // now behind the last reset: no second reset, today stays Nov 20.
        s.setTimeZone("America/Los_Angeles")
        try s.read()
        #expect(s.feed.summary.date.iso8601 == "2026-11-20")
        #expect(s.history.count == 2)
        #expect(s.streak == .init(current: 1, best: 1))
        // Nov 20 in Los Angeles: 3 blocks. Next morning the reset archives it once.
        try s.vice(3, endingAt: "2026-11-20T18:00")
        s.setClock("2026-11-21T09:00")
        try s.read()
        try s.read()
        #expect(s.history.map(\.date.iso8601) == ["2026-11-18", "2026-11-19", "2026-11-20"])
        #expect(s.history.last?.viceBlocks == 3)
        #expect(s.streak == .init(current: 2, best: 2))
    }

    @Test func flyingWestKeepsTheMorningsBlocksOnTheirDay() throws {
        // Five blocks early on Nov 20 in Berlin, then a flight to Los Angeles: the new calendar's
        // Nov 20 begins nine hours later, but those blocks still belong to Nov 20 and break the
        // streak there.
        let s = try Scenario(timeZone: "Europe/Berlin", start: "2026-11-20T06:30", trackingStart: "2026-11-19", goal: 4)
        try s.vice(5, endingAt: "2026-11-20T06:00")
        try s.read()
        #expect(s.feed.summary.progress.blocksUsed == 5)
        s.setTimeZone("America/Los_Angeles")
        try s.read()
        #expect(s.feed.summary.date.iso8601 == "2026-11-20")
        #expect(s.feed.summary.progress.blocksUsed == 5)
        s.setClock("2026-11-21T10:00")
        try s.read()
        #expect(s.history.map(\.date.iso8601) == ["2026-11-19", "2026-11-20"])
        #expect(s.history.map(\.viceBlocks) == [0, 5])
        #expect(s.streak == .init(current: 0, best: 1))
    }

    @Test func movingTheDayStartLaterKeepsTodaysBlocks() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-21T03:00", trackingStart: "2026-11-20", goal: 2)
        try s.vice(3, endingAt: "2026-11-21T02:30")
        try s.read()
        #expect(s.feed.summary.progress.blocksUsed == 3)
        var settings = try #require(try s.store.settings())
        settings.dayStartHour = 4
        try s.store.updateSettings(settings)
        try s.read()
        // 03:00 is now before the day start, but today began at midnight and keeps its blocks
        // until the next reset, at 04:00 tomorrow.
        #expect(s.feed.summary.date.iso8601 == "2026-11-21")
        #expect(s.feed.summary.progress.blocksUsed == 3)
        #expect(s.feed.todayInterval.upperBound == s.instant("2026-11-22T04:00"))
        s.setClock("2026-11-22T05:00")
        try s.read()
        #expect(s.history.last?.viceBlocks == 3)
        #expect(s.streak == .init(current: 0, best: 1))
    }

    @Test func blocksAMonitorWroteForAnArchivedDayCountWhenTheDashboardOpens() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-21T09:00", trackingStart: "2026-11-20", goal: 2)
        #expect(s.streak == .init(current: 1, best: 1))
        // A monitor catches up on Nov 20 while no dashboard runs.
        try s.vice(5, endingAt: "2026-11-20T20:00")
        let reopened = try FiguresReader(store: s.store, clock: s.clock, timeZone: .fixed(TimeZone(identifier: "UTC")!))
        #expect(reopened.history.map(\.viceBlocks) == [5])
        #expect(reopened.streak == .init(current: 0, best: 0))
    }

    @Test func aReaderThatMayNotWriteWorksTheResetOutWithoutRecordingIt() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-20T09:00", trackingStart: "2026-11-20", goal: 2)
        try s.vice(3, endingAt: "2026-11-20T20:00")
        s.setClock("2026-11-22T09:00")
        let reader = try FiguresReader(
            store: s.store, clock: s.clock, timeZone: .fixed(TimeZone(identifier: "UTC")!), writes: false)
        #expect(reader.summary.date.iso8601 == "2026-11-22")
        #expect(reader.history.map(\.viceBlocks) == [3, 0])
        #expect(reader.streak == .init(current: 1, best: 1))
        // Nothing was written: the store still has no history and the old reset date.
        #expect(s.history.isEmpty)
        #expect(try s.store.dayState()?.lastReset?.iso8601 == "2026-11-20")
    }

    @Test func aBlockRunningUpToMidnightCountsOnItsOwnDay() throws {
        // The simulated monitor stamps a block with its last millisecond.
        let s = try Scenario(timeZone: "UTC", start: "2026-11-20T23:59:59", trackingStart: "2026-11-20", goal: 8)
        try s.store.record([
            UsageEvent(
                id: UUID(), appID: "tiktok", category: .vice, seconds: 900,
                occurredAt: s.instant("2026-11-21T00:00:00Z").addingTimeInterval(-0.001))
        ])
        s.setClock("2026-11-21T00:00:30")
        try s.read()
        #expect(s.history.map(\.viceBlocks) == [1])
        #expect(s.feed.summary.progress.blocksUsed == 0)
    }

    @Test func aClockJumpingBackwardsDoesNotResetAgain() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-20T10:00", trackingStart: "2026-11-20", goal: 2)
        try s.vice(2, endingAt: "2026-11-20T20:00")
        s.setClock("2026-11-21T00:05")
        try s.read()
        #expect(s.streak == .init(current: 1, best: 1))
        // The clock goes back ten minutes: still Nov 21 on screen, nothing archived again.
        s.setClock("2026-11-20T23:55")
        try s.read()
        #expect(s.feed.summary.date.iso8601 == "2026-11-21")
        #expect(s.history.count == 1)
        // A block stamped 23:58 belongs to Nov 20 by its time: that day is derived again and
        // is now over the goal, which breaks the streak exactly once.
        try s.vice(1, endingAt: "2026-11-20T23:58")
        try s.read()
        #expect(s.history.map(\.viceBlocks) == [3])
        #expect(s.streak == .init(current: 0, best: 0))
        s.setClock("2026-11-21T00:10")
        try s.read()
        #expect(s.history.count == 1)
        #expect(s.streak == .init(current: 0, best: 0))
    }

    @Test func aThreeDayGapIsAccountedForDayByDay() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-17T09:00", trackingStart: "2026-11-17")
        try s.vice(1, endingAt: "2026-11-17T12:00")
        // The dashboard is closed for three days while a monitor keeps writing.
        try s.vice(3, endingAt: "2026-11-18T12:00")
        try s.vice(10, endingAt: "2026-11-19T20:00")
        s.setClock("2026-11-21T08:00")
        try s.read()
        #expect(s.history.map(\.date.iso8601) == ["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"])
        #expect(s.history.map(\.viceBlocks) == [1, 3, 10, 0])
        #expect(s.history.map(\.streakAfter) == [1, 2, 0, 1])
        #expect(s.streak == .init(current: 1, best: 2))
    }

    @Test func aNightOwlDayStartingAt4KeepsLateBlocksOnTheDayBefore() throws {
        let s = try Scenario(
            timeZone: "UTC", start: "2026-11-20T12:00", trackingStart: "2026-11-20", goal: 2, dayStartHour: 4)
        try s.vice(2, endingAt: "2026-11-20T23:00")
        try s.vice(1, endingAt: "2026-11-21T03:59")
        s.setClock("2026-11-21T03:59:30")
        try s.read()
        #expect(s.feed.summary.date.iso8601 == "2026-11-20")
        #expect(s.feed.summary.progress.blocksUsed == 3)
        s.setClock("2026-11-21T04:00")
        try s.read()
        #expect(s.feed.summary.date.iso8601 == "2026-11-21")
        #expect(s.feed.summary.progress.blocksUsed == 0)
        #expect(s.streak == .init(current: 0, best: 0))
    }

    @Test func eventsArrivingOutOfOrderGiveTheSameBalanceAsInOrder() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-21T12:00", trackingStart: "2026-11-21")
        func event(_ category: AppCategory, _ time: String) -> UsageEvent {
            UsageEvent(
                id: UUID(), appID: category == .vice ? "tiktok" : "kindle", category: category, seconds: 900,
                occurredAt: s.instant(time))
        }
        try s.store.record([event(.vice, "2026-11-21T10:00")])
        try s.read()
        #expect(s.feed.summary.ledger.overdraftSeconds == 900)
        // A productive block from earlier arrives late: it came first, so it covers the vice block.
        try s.store.record([event(.productive, "2026-11-21T09:00")])
        try s.read()
        #expect(s.feed.summary.ledger.overdraftSeconds == 0)
        #expect(s.feed.summary.ledger.balanceSeconds == 0)
        #expect(
            s.feed.summary.ledger
                == DailyLedger.fold(try s.store.events(in: s.feed.calendar.interval(of: s.feed.today)), exchangeRate: 1)
        )
    }
}
