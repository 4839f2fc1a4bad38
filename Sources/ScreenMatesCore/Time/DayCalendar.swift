import Foundation

/// Decides which day an instant belongs to: a calendar day in a time zone, starting at a
/// configurable hour (midnight by default; night owls pick 4 am).
///
/// Instants are the truth; the day-start hour only decides which day an instant belongs to. A
/// day is defined by the local wall clock, so a day across a DST change is 23 or 25 hours long,
/// and a day-start hour that does not exist on a spring-forward day starts at the first instant
/// after the gap.
public struct DayCalendar: Sendable, Hashable {
    public let timeZone: TimeZone
    public let dayStartHour: Int
    private let calendar: Calendar

    public init(timeZone: TimeZone, dayStartHour: Int = 0) {
        precondition((0...23).contains(dayStartHour), "day-start hour must be 0…23")
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    public static func == (lhs: DayCalendar, rhs: DayCalendar) -> Bool {
        lhs.timeZone.identifier == rhs.timeZone.identifier && lhs.dayStartHour == rhs.dayStartHour
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timeZone.identifier)
        hasher.combine(dayStartHour)
    }

    /// The day that `instant` belongs to: the latest day whose start is at or before it.
    ///
    /// Usually the wall clock's date (the day before, when its hour is before the day-start
    /// hour). Where the clock falls back across the day-start hour (Chatham's 03:45 → 02:45
    /// with a 3 am start), the wall clock would name the previous day again after the new one
    /// began; checking against `start(of:)` keeps days moving forward only.
    public func day(containing instant: Date) -> LocalDate {
        let wall = wallDay(containing: instant)
        if start(of: wall.adding(days: 1)) <= instant { return wall.adding(days: 1) }
        if start(of: wall) > instant { return wall.adding(days: -1) }
        return wall
    }

    /// The day the wall clock names for `instant`, from its local date and hour alone.
    private func wallDay(containing instant: Date) -> LocalDate {
        let c = calendar.dateComponents([.year, .month, .day, .hour], from: instant)
        let date = LocalDate(year: c.year!, month: c.month!, day: c.day!)!
        return c.hour! < dayStartHour ? date.adding(days: -1) : date
    }

    /// The first instant of `day`.
    public func start(of day: LocalDate) -> Date {
        var components = DateComponents()
        components.year = day.year
        components.month = day.month
        components.day = day.day
        components.hour = dayStartHour
        var instant = calendar.date(from: components)!
        // Foundation resolves a wall-clock time inside a DST gap to a neighbouring instant; the
        // day must start at or after the gap, and never inside the previous day.
        while wallDay(containing: instant) < day {
            instant = instant.addingTimeInterval(60)
        }
        while wallDay(containing: instant.addingTimeInterval(-1)) == day {
            instant = instant.addingTimeInterval(-60)
        }
        return instant
    }

    /// The instant a wall clock in this time zone shows `hour:minute` on `date` (the first one
    /// when the time happens twice, the one after the gap when it does not happen at all).
    public func instant(on date: LocalDate, hour: Int, minute: Int) -> Date {
        var components = DateComponents()
        components.year = date.year
        components.month = date.month
        components.day = date.day
        components.hour = hour
        components.minute = minute
        return calendar.date(from: components)!
    }

    /// The half-open range of instants that belong to `day`.
    public func interval(of day: LocalDate) -> Range<Date> {
        start(of: day)..<start(of: day.adding(days: 1))
    }

    /// When the day containing `instant` ends, i.e. the next daily reset.
    public func nextReset(after instant: Date) -> Date {
        start(of: day(containing: instant).adding(days: 1))
    }

    /// Local wall-clock hour and minute of `instant`.
    public func hourAndMinute(of instant: Date) -> (hour: Int, minute: Int) {
        let c = calendar.dateComponents([.hour, .minute], from: instant)
        return (c.hour!, c.minute!)
    }

    /// Local wall-clock time of `instant` with seconds.
    public func wallClock(of instant: Date) -> (hour: Int, minute: Int, second: Int) {
        let c = calendar.dateComponents([.hour, .minute, .second], from: instant)
        return (c.hour!, c.minute!, c.second!)
    }
}
