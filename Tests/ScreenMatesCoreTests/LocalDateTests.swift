import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct LocalDateTests {
    private static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        LocalDate(year: year, month: month, day: day)!
    }

    // MARK: Day numbers

    @Test func dayNumberOfTheEpochAndNeighbours() {
        #expect(Self.date(1970, 1, 1).dayNumber == 0)
        #expect(Self.date(1970, 1, 2).dayNumber == 1)
        #expect(Self.date(1969, 12, 31).dayNumber == -1)
        #expect(Self.date(2000, 3, 1).dayNumber == 11_017)
        #expect(Self.date(2026, 11, 21).dayNumber == 20_778)
        #expect(LocalDate(dayNumber: 20_778) == Self.date(2026, 11, 21))
        #expect(LocalDate(dayNumber: -719_468) == Self.date(0, 3, 1))
    }

    @Test func dayNumberRoundTripsThroughComponents() async {
        await propertyCheck(count: 200, input: Gen.int(in: -1_000_000...1_000_000)) { number in
            let date = LocalDate(dayNumber: number)
            #expect(date.dayNumber == number)
            // The components name a real day, and naming it again gives the same date.
            let rebuilt = LocalDate(year: date.year, month: date.month, day: date.day)
            #expect(rebuilt == date)
            // The next day number is the next calendar day.
            let next = LocalDate(dayNumber: number + 1)
            if date.day < LocalDate.daysIn(month: date.month, year: date.year) {
                #expect(next.year == date.year && next.month == date.month && next.day == date.day + 1)
            } else if date.month < 12 {
                #expect(next.year == date.year && next.month == date.month + 1 && next.day == 1)
            } else {
                #expect(next.year == date.year + 1 && next.month == 1 && next.day == 1)
            }
        }
    }

    @Test func componentsRoundTripThroughDayNumber() async {
        let input = zip(Gen.int(in: -2000...6000), Gen.int(in: 1...12), Gen.int(in: 1...31))
        await propertyCheck(count: 200, input: input) { year, month, day in
            guard let date = LocalDate(year: year, month: month, day: day) else {
                #expect(day > LocalDate.daysIn(month: month, year: year))
                return
            }
            let back = LocalDate(dayNumber: date.dayNumber)
            #expect(back.year == year && back.month == month && back.day == day)
            #expect(date.adding(days: 10).days(to: date) == -10)
        }
    }

    @Test func dayNumbersAgreeWithFoundationsGregorianCalendar() async {
        // Foundation's Gregorian calendar switches to Julian before October 1582, so the check
        // stays in the proleptic range both agree on.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let calendar = utc
        await propertyCheck(count: 200, input: Gen.int(in: -130_000...1_000_000)) { number in
            let instant = Date(timeIntervalSince1970: Double(number) * 86_400)
            let c = calendar.dateComponents([.year, .month, .day], from: instant)
            let date = LocalDate(dayNumber: number)
            #expect(date.year == c.year && date.month == c.month && date.day == c.day)
        }
    }

    @Test func addingAndCountingDays() {
        let start = Self.date(2026, 12, 30)
        #expect(start.adding(days: 3) == Self.date(2027, 1, 2))
        #expect(start.adding(days: -365) == Self.date(2025, 12, 30))
        #expect(start.days(to: Self.date(2027, 1, 2)) == 3)
        #expect(Self.date(2027, 1, 2).days(to: start) == -3)
        #expect(Self.date(2026, 1, 1) < Self.date(2026, 1, 2))
        #expect(Self.date(2025, 12, 31) < Self.date(2026, 1, 1))
        #expect(!(Self.date(2026, 1, 1) < Self.date(2026, 1, 1)))
    }

    // MARK: ISO 8601

    @Test func formatsAsPaddedISO8601() {
        #expect(Self.date(2026, 11, 21).iso8601 == "2026-11-21")
        #expect(Self.date(2026, 1, 5).iso8601 == "2026-01-05")
        #expect(Self.date(987, 3, 9).iso8601 == "0987-03-09")
        #expect(Self.date(2026, 1, 5).description == "2026-01-05")
    }

    @Test func parsesISO8601() {
        #expect(LocalDate(iso8601: "2026-11-21") == Self.date(2026, 11, 21))
        #expect(LocalDate(iso8601: "2024-02-29") == Self.date(2024, 2, 29))
        #expect(LocalDate(iso8601: "0987-03-09") == Self.date(987, 3, 9))
    }

    @Test(arguments: [
        "2026-02-30", "2026-13-01", "2026-00-10", "2026-04-31", "2026-01-00", "2023-02-29", "1900-02-29",
        "", "2026", "2026-1-05", "2026-01-5", "26-01-05", "2026/01/05", "2026-01-05T00:00", "yesterday",
        "2026-01-05-", "-2026-01-05", "2026--1-05", "2026-aa-05", "2026-+1-05", "+026-01-05", "2026-01-+5",
    ])
    func rejectsInvalidISO8601(_ text: String) {
        #expect(LocalDate(iso8601: text) == nil)
    }

    @Test func iso8601RoundTrips() async {
        // Four-digit years: the range the format can write.
        await propertyCheck(count: 200, input: Gen.int(in: -719_162...2_932_896)) { number in
            let date = LocalDate(dayNumber: number)
            #expect(date.iso8601.count == 10)
            #expect(LocalDate(iso8601: date.iso8601) == date)
        }
    }

    @Test func codableAsTheISOString() throws {
        let date = Self.date(2026, 3, 8)
        let data = try JSONEncoder().encode([date])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-03-08"]"#)
        #expect(try JSONDecoder().decode([LocalDate].self, from: data) == [date])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDate].self, from: Data(#"["2026-02-30"]"#.utf8))
        }
    }

    // MARK: Invalid components

    @Test func rejectsComponentsThatNameNoDay() {
        #expect(LocalDate(year: 2026, month: 2, day: 30) == nil)
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2026, month: 13, day: 1) == nil)
        #expect(LocalDate(year: 2026, month: 0, day: 1) == nil)
        #expect(LocalDate(year: 2026, month: 4, day: 31) == nil)
        #expect(LocalDate(year: 2026, month: 1, day: 0) == nil)
        #expect(LocalDate(year: 2026, month: 1, day: -1) == nil)
        #expect(LocalDate(year: 2026, month: 1, day: 32) == nil)
        #expect(LocalDate(year: 2026, month: 1, day: 31) != nil)
        #expect(LocalDate(year: 2026, month: 4, day: 30) != nil)
    }

    // MARK: Weeks

    @Test(arguments: [
        ("1970-01-01", 4), ("1969-12-31", 3), ("1969-12-29", 1), ("2000-01-01", 6), ("1900-01-01", 1),
        ("2024-02-29", 4), ("2026-01-01", 4), ("2026-03-09", 1), ("2026-11-21", 6), ("2026-11-22", 7),
        ("1582-10-15", 5),
    ])
    func isoWeekdayOfKnownDates(_ text: String, _ weekday: Int) {
        #expect(LocalDate(iso8601: text)!.isoWeekday == weekday)
    }

    @Test func startOfWeekOfKnownDates() {
        #expect(Self.date(2026, 11, 21).startOfWeek == Self.date(2026, 11, 16))
        #expect(Self.date(2026, 11, 16).startOfWeek == Self.date(2026, 11, 16))
        #expect(Self.date(2026, 11, 22).startOfWeek == Self.date(2026, 11, 16))
        #expect(Self.date(2027, 1, 1).startOfWeek == Self.date(2026, 12, 28))
        #expect(Self.date(1970, 1, 1).startOfWeek == Self.date(1969, 12, 29))
    }

    @Test func startOfWeekIsAMondayAtOrBeforeTheDate() async {
        await propertyCheck(count: 200, input: Gen.int(in: -1_000_000...1_000_000)) { number in
            let date = LocalDate(dayNumber: number)
            let monday = date.startOfWeek
            #expect(monday.isoWeekday == 1)
            #expect(monday <= date)
            #expect((0...6).contains(monday.days(to: date)))
            #expect(monday.days(to: date) == date.isoWeekday - 1)
            #expect((1...7).contains(date.isoWeekday))
            #expect(date.adding(days: 7).isoWeekday == date.isoWeekday)
            #expect(date.adding(days: 1).isoWeekday == date.isoWeekday % 7 + 1)
        }
    }

    @Test func startOfMonth() {
        #expect(Self.date(2026, 11, 21).startOfMonth == Self.date(2026, 11, 1))
        #expect(Self.date(2024, 2, 29).startOfMonth == Self.date(2024, 2, 1))
    }

    // MARK: Leap years

    @Test func leapYears() {
        for year in [2000, 2024, 2028, 1996, 2400, 1600] {
            #expect(LocalDate.isLeap(year), "\(year)")
            #expect(LocalDate.daysIn(month: 2, year: year) == 29)
            #expect(LocalDate(year: year, month: 2, day: 29) != nil)
            #expect(LocalDate(year: year + 1, month: 1, day: 1)!.dayNumber - Self.date(year, 1, 1).dayNumber == 366)
        }
        for year in [1900, 2100, 2023, 2025, 2026, 1800, 2200] {
            #expect(!LocalDate.isLeap(year), "\(year)")
            #expect(LocalDate.daysIn(month: 2, year: year) == 28)
            #expect(LocalDate(year: year, month: 2, day: 29) == nil)
            #expect(LocalDate(year: year + 1, month: 1, day: 1)!.dayNumber - Self.date(year, 1, 1).dayNumber == 365)
        }
        #expect(Self.date(2024, 2, 28).adding(days: 1) == Self.date(2024, 2, 29))
        #expect(Self.date(2023, 2, 28).adding(days: 1) == Self.date(2023, 3, 1))
        #expect(Self.date(1900, 2, 28).adding(days: 1) == Self.date(1900, 3, 1))
        #expect(Self.date(2000, 2, 28).adding(days: 1) == Self.date(2000, 2, 29))
    }

    @Test func daysInEveryMonth() {
        let expected = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        #expect((1...12).map { LocalDate.daysIn(month: $0, year: 2026) } == expected)
    }
}
