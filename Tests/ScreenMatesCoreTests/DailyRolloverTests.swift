import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct DailyRolloverTests {
    private static let today = LocalDate(year: 2026, month: 11, day: 21)!

    @Test func firstRunArchivesNothing() {
        let rollover = DailyRollover(lastReset: nil, clockDay: Self.today)
        #expect(rollover.daysToArchive.isEmpty)
        #expect(!rollover.isReset)
        #expect(rollover.newLastReset == Self.today)
        #expect(!rollover.clockIsBehind)
    }

    @Test func sameDayArchivesNothing() {
        let rollover = DailyRollover(lastReset: Self.today, clockDay: Self.today)
        #expect(rollover.daysToArchive.isEmpty)
        #expect(!rollover.isReset)
        #expect(rollover.newLastReset == Self.today)
        #expect(!rollover.clockIsBehind)
    }

    @Test func nextDayArchivesThePreviousDay() {
        let rollover = DailyRollover(lastReset: Self.today.adding(days: -1), clockDay: Self.today)
        #expect(rollover.daysToArchive == [Self.today.adding(days: -1)])
        #expect(rollover.isReset)
        #expect(rollover.newLastReset == Self.today)
        #expect(!rollover.clockIsBehind)
    }

    @Test func aGapArchivesEveryMissingDayInOrder() {
        // Last reset three days ago: that day and the two after it were never archived.
        let rollover = DailyRollover(lastReset: Self.today.adding(days: -3), clockDay: Self.today)
        #expect(
            rollover.daysToArchive == [
                Self.today.adding(days: -3), Self.today.adding(days: -2), Self.today.adding(days: -1),
            ])
        #expect(rollover.newLastReset == Self.today)
    }

    @Test func acrossAMonthAndYearEnd() {
        let last = LocalDate(year: 2026, month: 12, day: 30)!
        let rollover = DailyRollover(lastReset: last, clockDay: LocalDate(year: 2027, month: 1, day: 2)!)
        #expect(rollover.daysToArchive.map(\.iso8601) == ["2026-12-30", "2026-12-31", "2027-01-01"])
    }

    @Test func clockBehindArchivesNothingAndSaysSo() {
        let rollover = DailyRollover(lastReset: Self.today, clockDay: Self.today.adding(days: -1))
        #expect(rollover.daysToArchive.isEmpty)
        #expect(!rollover.isReset)
        #expect(rollover.clockIsBehind)
        #expect(rollover.newLastReset == Self.today)
        #expect(
            DailyRollover.effectiveToday(clockDay: Self.today.adding(days: -1), lastReset: Self.today) == Self.today)
    }

    @Test func effectiveToday() {
        #expect(DailyRollover.effectiveToday(clockDay: Self.today, lastReset: nil) == Self.today)
        #expect(
            DailyRollover.effectiveToday(clockDay: Self.today, lastReset: Self.today.adding(days: -5)) == Self.today)
        #expect(
            DailyRollover.effectiveToday(clockDay: Self.today, lastReset: Self.today.adding(days: 2))
                == Self.today.adding(days: 2))
    }

    @Test func veryLongGapsAreCapped() {
        let rollover = DailyRollover(lastReset: Self.today.adding(days: -5000), clockDay: Self.today)
        #expect(rollover.daysToArchive.count == DailyRollover.maximumArchivedGap)
        #expect(rollover.daysToArchive.first == Self.today.adding(days: -DailyRollover.maximumArchivedGap))
        #expect(rollover.daysToArchive.last == Self.today.adding(days: -1))
        #expect(rollover.newLastReset == Self.today)
        let exact = DailyRollover(lastReset: Self.today.adding(days: -3660), clockDay: Self.today)
        #expect(exact.daysToArchive.first == Self.today.adding(days: -3660))
        #expect(exact.daysToArchive.count == 3660)
    }

    @Test func archivedDaysAreContiguousAndEndTheDayBeforeTheClockDay() async {
        let input = zip(Gen.int(in: 18_000...22_000), Gen.int(in: -30...120).optional(valueRate: 0.9))
        await propertyCheck(count: 200, input: input) { clockNumber, gap in
            let clockDay = LocalDate(dayNumber: clockNumber)
            let lastReset = gap.map { clockDay.adding(days: -$0) }
            let rollover = DailyRollover(lastReset: lastReset, clockDay: clockDay)
            let days = rollover.daysToArchive
            for (a, b) in zip(days, days.dropFirst()) { #expect(a.days(to: b) == 1) }
            #expect(days.allSatisfy { $0 < clockDay })
            if let last = days.last { #expect(last == clockDay.adding(days: -1)) }
            if let lastReset, lastReset < clockDay {
                #expect(days.first == lastReset)
                #expect(days.count == lastReset.days(to: clockDay))
            } else {
                #expect(days.isEmpty)
            }
            #expect(rollover.isReset == !days.isEmpty)
            #expect(rollover.newLastReset == DailyRollover.effectiveToday(clockDay: clockDay, lastReset: lastReset))
            #expect(rollover.clockIsBehind == (lastReset.map { clockDay < $0 } ?? false))
        }
    }

    @Test func aDayIsNeverArchivedTwiceWhateverTheClockDoes() async {
        // A clock that wanders: mostly forward, sometimes jumping back (DST, zone moves, NTP).
        let steps = Gen.int(in: -3...4).array(of: 1...40)
        await propertyCheck(count: 200, input: steps) { steps in
            let start = Self.today
            var lastReset: LocalDate? = nil
            var clockDay = start
            var archived: [LocalDate] = []
            var latest = start.adding(days: steps[0])
            for step in steps {
                clockDay = clockDay.adding(days: step)
                latest = max(latest, clockDay)
                let rollover = DailyRollover(lastReset: lastReset, clockDay: clockDay)
                archived += rollover.daysToArchive
                lastReset = rollover.newLastReset
                // Running again at the same clock day changes nothing.
                let again = DailyRollover(lastReset: lastReset, clockDay: clockDay)
                #expect(again.daysToArchive.isEmpty)
                #expect(again.newLastReset == lastReset)
            }
            #expect(Set(archived).count == archived.count)
            #expect(archived == archived.sorted())
            // Every day from the first "today" up to the day before the latest one, exactly once.
            let firstToday = start.adding(days: steps[0])
            let expected =
                firstToday < latest ? (0..<firstToday.days(to: latest)).map { firstToday.adding(days: $0) } : []
            #expect(archived == expected)
        }
    }
}
