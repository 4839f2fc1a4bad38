import Foundation

/// The daily reset as a plan: which finished days to archive and what the new reset date is.
///
/// `lastReset` is the day that was "today" when the reset last ran. A reset happens when the
/// clock's day is later than that: every day from `lastReset` up to yesterday is archived, so
/// days skipped while nothing ran are accounted for. When the clock's day is the same or
/// earlier (a clock set back, a time zone moved west) nothing happens: a day is never reset
/// twice, and "today" stays the later day until the clock catches up.
public struct DailyRollover: Hashable, Sendable {
    /// Finished days to archive, oldest first.
    public let daysToArchive: [LocalDate]
    /// The reset date to record.
    public let newLastReset: LocalDate
    /// True when the clock's day is before the recorded reset date.
    public let clockIsBehind: Bool

    /// The longest gap archived day by day; older days without a record count as days without
    /// usage, which is what they are when nothing ran.
    public static let maximumArchivedGap = 3660

    public init(lastReset: LocalDate?, clockDay: LocalDate) {
        guard let lastReset else {
            daysToArchive = []
            newLastReset = clockDay
            clockIsBehind = false
            return
        }
        guard clockDay > lastReset else {
            daysToArchive = []
            newLastReset = lastReset
            clockIsBehind = clockDay < lastReset
            return
        }
        let gap = lastReset.days(to: clockDay)
        let first = gap > Self.maximumArchivedGap ? clockDay.adding(days: -Self.maximumArchivedGap) : lastReset
        daysToArchive = (0..<first.days(to: clockDay)).map { first.adding(days: $0) }
        newLastReset = clockDay
        clockIsBehind = false
    }

    /// Whether this rollover changes anything.
    public var isReset: Bool { !daysToArchive.isEmpty }

    /// The instants each archived day covers. The first begins where the last reset left off
    /// (`resetInstant`), each one ends where the next begins, and the last ends where the new
    /// today begins; so every instant belongs to exactly one day, even when the time zone or
    /// the day-start hour changed in between. (A day can then be longer or shorter than 24 h.)
    public func archivedIntervals(after resetInstant: Date?, calendar: DayCalendar) -> [(
        day: LocalDate, interval: Range<Date>
    )] {
        guard let first = daysToArchive.first else { return [] }
        var lower = resetInstant ?? calendar.start(of: first)
        var result: [(LocalDate, Range<Date>)] = []
        for day in daysToArchive {
            let upper = max(lower, calendar.start(of: day.adding(days: 1)))
            result.append((day, lower..<upper))
            lower = upper
        }
        return result
    }

    /// Where the new today begins after this rollover: the end of the last archived day.
    public func newResetInstant(after resetInstant: Date?, calendar: DayCalendar) -> Date {
        archivedIntervals(after: resetInstant, calendar: calendar).last?.interval.upperBound
            ?? resetInstant ?? calendar.start(of: newLastReset)
    }

    /// The instants of `today`: from where the last reset left off to the start of the next
    /// day in the current calendar (never before it began).
    public static func todayInterval(today: LocalDate, resetInstant: Date?, calendar: DayCalendar) -> Range<Date> {
        let start = resetInstant ?? calendar.start(of: today)
        return start..<max(start, calendar.start(of: today.adding(days: 1)))
    }

    /// The day the dashboard treats as today: the clock's day, or the recorded reset date when
    /// the clock is behind it.
    public static func effectiveToday(clockDay: LocalDate, lastReset: LocalDate?) -> LocalDate {
        guard let lastReset else { return clockDay }
        return max(clockDay, lastReset)
    }
}
