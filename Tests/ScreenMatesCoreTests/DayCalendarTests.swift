import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct DayCalendarTests {
    private static let zoneNames = [
        "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo",
        "Pacific/Chatham", "UTC", "America/Santiago", "Asia/Kathmandu", "Europe/London",
    ]

    private static func zone(_ name: String) -> TimeZone { TimeZone(identifier: name)! }

    private static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        LocalDate(year: year, month: month, day: day)!
    }

    /// An instant from its UTC ISO form.
    private static func instant(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }

    /// A wall-clock time in `zone`, resolved by Foundation.
    private static func local(
        _ zone: TimeZone, _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0
    ) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components)!
    }

    private static let zoneGen = Gen<String?>.element(of: zoneNames).map { TimeZone(identifier: $0!)! }

    // MARK: Properties

    @Test func everyInstantLiesInsideItsDay() async {
        let input = zip(Gen.dateTime(inYear: 2020...2030), Self.zoneGen, Gen.int(in: 0...23))
        await propertyCheck(count: 200, input: input) { instant, zone, hour in
            let calendar = DayCalendar(timeZone: zone, dayStartHour: hour)
            let day = calendar.day(containing: instant)
            let start = calendar.start(of: day)
            let end = calendar.start(of: day.adding(days: 1))
            #expect(start <= instant, "\(zone.identifier) h=\(hour) \(instant) day \(day) starts \(start)")
            #expect(instant < end, "\(zone.identifier) h=\(hour) \(instant) day \(day) ends \(end)")
            #expect(calendar.interval(of: day).contains(instant))
            #expect(calendar.nextReset(after: instant) == end)
            // A day is 24 hours give or take one DST shift.
            let length = end.timeIntervalSince(start)
            #expect((22 * 3600.0...26 * 3600.0).contains(length), "\(zone.identifier) \(day) is \(length) s")
        }
    }

    @Test func theStartOfADayBelongsToIt() async {
        let input = zip(Gen.int(in: 18_262...22_280), Self.zoneGen, Gen.int(in: 0...23))
        await propertyCheck(count: 200, input: input) { number, zone, hour in
            let calendar = DayCalendar(timeZone: zone, dayStartHour: hour)
            let day = LocalDate(dayNumber: number)
            let start = calendar.start(of: day)
            #expect(calendar.day(containing: start) == day, "\(zone.identifier) h=\(hour) \(day) starts \(start)")
            // The instant just before belongs to the day before.
            #expect(calendar.day(containing: start.addingTimeInterval(-1)) == day.adding(days: -1))
            // The day starts at the day-start hour on the wall clock when that time exists that
            // day, and otherwise just after the DST gap that swallowed it.
            let wall = calendar.wallClock(of: start)
            let candidate = Self.local(zone, day.year, day.month, day.day, hour, 0)
            if calendar.wallClock(of: candidate) == (hour, 0, 0) {
                #expect(wall == (hour, 0, 0), "\(zone.identifier) h=\(hour) \(day) starts at \(wall)")
            } else {
                #expect(wall.hour > hour || wall.hour == hour && wall.minute > 0)
            }
        }
    }

    @Test func instantsAroundDSTTransitionsLieInsideTheirDay() async {
        // Random instants within three hours of a real DST transition, where things go wrong.
        let dstZones = Gen<String?>.element(of: [
            "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Chatham", "America/Santiago",
            "Europe/London",
        ])
        .map { TimeZone(identifier: $0!)! }
        let input = zip(Gen.dateTime(inYear: 2020...2030), dstZones, Gen.int(in: 0...23), Gen.int(in: -10_800...10_800))
        await propertyCheck(count: 200, input: input) { base, zone, hour, offset in
            guard let transition = zone.nextDaylightSavingTimeTransition(after: base) else {
                Issue.record("\(zone.identifier) has no DST transition after \(base)")
                return
            }
            let instant = transition.addingTimeInterval(TimeInterval(offset))
            let calendar = DayCalendar(timeZone: zone, dayStartHour: hour)
            let day = calendar.day(containing: instant)
            let interval = calendar.interval(of: day)
            #expect(interval.contains(instant), "\(zone.identifier) h=\(hour) \(instant) in \(day): \(interval)")
            #expect(calendar.day(containing: interval.lowerBound) == day)
            #expect(calendar.day(containing: interval.upperBound) == day.adding(days: 1))
            let later = calendar.day(containing: instant.addingTimeInterval(1800))
            #expect(later == day || later == day.adding(days: 1))
        }
    }

    @Test func dayAssignmentNeverGoesBackwardsWithinAnHourStep() async {
        let input = zip(Gen.dateTime(inYear: 2020...2030), Self.zoneGen, Gen.int(in: 0...23))
        await propertyCheck(count: 200, input: input) { instant, zone, hour in
            let calendar = DayCalendar(timeZone: zone, dayStartHour: hour)
            let day = calendar.day(containing: instant)
            let later = calendar.day(containing: instant.addingTimeInterval(3600))
            #expect(later == day || later == day.adding(days: 1))
        }
    }

    // MARK: DST

    @Test func springForwardDayIs23HoursLong() {
        let calendar = DayCalendar(timeZone: Self.zone("America/New_York"))
        let day = Self.date(2026, 3, 8)
        #expect(calendar.start(of: day) == Self.instant("2026-03-08T05:00:00Z"))
        #expect(calendar.start(of: day.adding(days: 1)) == Self.instant("2026-03-09T04:00:00Z"))
        let interval = calendar.interval(of: day)
        #expect(interval.upperBound.timeIntervalSince(interval.lowerBound) == 23 * 3600)
        // The days around it are 24 hours long.
        let before = calendar.interval(of: day.adding(days: -1))
        #expect(before.upperBound.timeIntervalSince(before.lowerBound) == 24 * 3600)
    }

    @Test func fallBackDayIs25HoursLong() {
        let calendar = DayCalendar(timeZone: Self.zone("America/New_York"))
        let day = Self.date(2026, 11, 1)
        #expect(calendar.start(of: day) == Self.instant("2026-11-01T04:00:00Z"))
        let interval = calendar.interval(of: day)
        #expect(interval.upperBound.timeIntervalSince(interval.lowerBound) == 25 * 3600)
        // Both passes through 01:30 belong to the same day.
        #expect(calendar.day(containing: Self.instant("2026-11-01T05:30:00Z")) == day)
        #expect(calendar.day(containing: Self.instant("2026-11-01T06:30:00Z")) == day)
    }

    @Test func dayStartHourInsideTheSpringForwardGapStartsAfterTheGap() {
        // 02:00 does not exist in New York on 2026-03-08: the clock jumps from 01:59:59 EST to 03:00 EDT.
        let calendar = DayCalendar(timeZone: Self.zone("America/New_York"), dayStartHour: 2)
        let day = Self.date(2026, 3, 8)
        #expect(calendar.start(of: day) == Self.instant("2026-03-08T07:00:00Z"))
        #expect(calendar.day(containing: Self.instant("2026-03-08T06:59:59Z")) == day.adding(days: -1))
        #expect(calendar.start(of: day.adding(days: 1)) == Self.instant("2026-03-09T06:00:00Z"))
        let interval = calendar.interval(of: day)
        #expect(interval.upperBound.timeIntervalSince(interval.lowerBound) == 23 * 3600)
    }

    @Test func halfHourShiftOnLordHowe() {
        // Lord Howe Island moves its clocks by 30 minutes: 02:00 → 02:30 on 2026-10-04.
        let calendar = DayCalendar(timeZone: Self.zone("Australia/Lord_Howe"))
        let spring = calendar.interval(of: Self.date(2026, 10, 4))
        #expect(spring.upperBound.timeIntervalSince(spring.lowerBound) == 23.5 * 3600)
        let autumn = calendar.interval(of: Self.date(2026, 4, 5))
        #expect(autumn.upperBound.timeIntervalSince(autumn.lowerBound) == 24.5 * 3600)
        let twoAM = DayCalendar(timeZone: Self.zone("Australia/Lord_Howe"), dayStartHour: 2)
        #expect(twoAM.start(of: Self.date(2026, 10, 4)) == Self.instant("2026-10-03T15:30:00Z"))
    }

    @Test func chathamFallBackAcrossAThreeOClockDayStart() {
        // On 2026-04-05 the Chatham Islands go from 03:44:59 +13:45 back to 02:45 +12:45: local
        // 03:00–03:44 happens once before the shift and 02:45–02:59 again after it.
        let calendar = DayCalendar(timeZone: Self.zone("Pacific/Chatham"), dayStartHour: 3)
        let day = Self.date(2026, 4, 5)
        // The day starts at the first 03:00 (+13:45).
        #expect(calendar.start(of: day) == Self.instant("2026-04-04T13:15:00Z"))
        #expect(calendar.day(containing: Self.instant("2026-04-04T13:14:59Z")) == day.adding(days: -1))
        // 02:50 +12:45, after the shift: the day has already started and stays started.
        #expect(calendar.day(containing: Self.instant("2026-04-04T14:05:00Z")) == day)
        #expect(calendar.day(containing: Self.instant("2026-04-04T14:14:59Z")) == day)
    }

    // MARK: Day-start hour

    @Test func dayStartHourFourPutsEarlyMorningsInThePreviousDay() {
        let zone = Self.zone("Europe/Berlin")
        let calendar = DayCalendar(timeZone: zone, dayStartHour: 4)
        let day = Self.date(2026, 6, 15)
        #expect(calendar.day(containing: Self.local(zone, 2026, 6, 15, 3, 59)) == day.adding(days: -1))
        #expect(calendar.day(containing: Self.local(zone, 2026, 6, 15, 3, 59, 59)) == day.adding(days: -1))
        #expect(calendar.day(containing: Self.local(zone, 2026, 6, 15, 4, 0)) == day)
        #expect(calendar.day(containing: Self.local(zone, 2026, 6, 15, 23, 59)) == day)
        #expect(calendar.day(containing: Self.local(zone, 2026, 6, 16, 0, 30)) == day)
        #expect(calendar.start(of: day) == Self.instant("2026-06-15T02:00:00Z"))
        #expect(calendar.nextReset(after: Self.local(zone, 2026, 6, 15, 12, 0)) == Self.instant("2026-06-16T02:00:00Z"))
    }

    @Test func midnightStartIsTheCalendarDay() {
        let zone = Self.zone("Asia/Kolkata")
        let calendar = DayCalendar(timeZone: zone)
        #expect(calendar.dayStartHour == 0)
        #expect(calendar.day(containing: Self.instant("2026-06-14T18:29:59Z")) == Self.date(2026, 6, 14))
        #expect(calendar.day(containing: Self.instant("2026-06-14T18:30:00Z")) == Self.date(2026, 6, 15))
        #expect(calendar.start(of: Self.date(2026, 6, 15)) == Self.instant("2026-06-14T18:30:00Z"))
    }

    @Test func wallClockReadings() {
        let calendar = DayCalendar(timeZone: Self.zone("Asia/Kolkata"))
        let instant = Self.instant("2026-06-14T18:31:07Z")
        #expect(calendar.hourAndMinute(of: instant) == (0, 1))
        #expect(calendar.wallClock(of: instant) == (0, 1, 7))
    }

    @Test func equalityComparesZoneAndHour() {
        let a = DayCalendar(timeZone: Self.zone("Europe/Berlin"), dayStartHour: 4)
        #expect(a == DayCalendar(timeZone: Self.zone("Europe/Berlin"), dayStartHour: 4))
        #expect(a != DayCalendar(timeZone: Self.zone("Europe/Berlin"), dayStartHour: 0))
        #expect(a != DayCalendar(timeZone: Self.zone("UTC"), dayStartHour: 4))
        #expect(Set([a, DayCalendar(timeZone: Self.zone("Europe/Berlin"), dayStartHour: 4)]).count == 1)
    }
}
