import Foundation
import ScreenMatesCore

/// The rules every group-store implementation applies, whatever its engine, so that a SQLite
/// file and a PostgreSQL server accept, refuse and rate-limit exactly the same things.
///
/// The join rate limit: after `maximumFailedAttempts` wrong codes tried by one user id within
/// `attemptWindow`, every lookup and join by that user id is refused — even with a right code —
/// until the oldest of those failures leaves the window. Refused attempts are not counted, so
/// waiting always lifts the limit; a successful join does not wipe earlier failures.
public enum GroupStoreRules {
    /// Wrong codes one user id may try within `attemptWindow` before lookups are refused.
    public static let maximumFailedAttempts = 5
    /// How long a failed attempt counts against the user id, in seconds.
    public static let attemptWindow: TimeInterval = 600

    /// Seconds until the user may try again, or `nil` when they may try now. `failures` are the
    /// instants of the user's failed attempts (any order; ones outside the window are ignored,
    /// as are ones later than `now`, written by a clock running ahead).
    public static func retryAfter(failures: [Date], now: Date) -> Int? {
        let recent = failures.filter { $0 > now.addingTimeInterval(-attemptWindow) && $0 <= now }.sorted()
        guard recent.count >= maximumFailedAttempts else { return nil }
        // The limit lifts when fewer than `maximumFailedAttempts` failures remain in the window.
        let lifting = recent[recent.count - maximumFailedAttempts].addingTimeInterval(attemptWindow)
        let seconds = lifting.timeIntervalSince(now).rounded(.up)
        return Int(min(max(seconds, 1), attemptWindow))
    }

    /// The first day of a group's day totals it keeps on `today`: the first day of the month
    /// before `today`'s. No screen shows a longer period than this month (the leaderboard's
    /// week and month, `group show`), and the month before covers members whose day is still
    /// yesterday somewhere. Days of a week whose result is still pending are kept too, until the
    /// week is settled: the settlement counts them (`settleWeeks` applies both, after settling).
    public static func retainedFrom(today: LocalDate) -> LocalDate {
        today.startOfMonth.adding(days: -1).startOfMonth
    }

    /// A group's daily goal must be in `UsageRules.dailyGoalRange`.
    public static func check(dailyGoalBlocks goal: Int) throws(GroupStoreError) {
        guard UsageRules.dailyGoalRange.contains(goal) else {
            let range = UsageRules.dailyGoalRange
            throw .invalidValue(
                "A group's daily goal is \(range.lowerBound)–\(range.upperBound) blocks; \(goal) is out of range.")
        }
    }

    /// The dates every engine keeps: years 1 to 9999.
    public static let storableDates = LocalDate(year: 1, month: 1, day: 1)!...LocalDate(year: 9999, month: 12, day: 31)!

    /// A date in `storableDates`.
    public static func check(date: LocalDate) throws(GroupStoreError) {
        // By year: the day number of an absurd year would overflow.
        guard (1...9999).contains(date.year) else {
            throw .invalidValue("\(date) is not a date the group store can keep (years 1–9999).")
        }
    }

    /// The day number of `date`, moved into `storableDates` if it lies beyond them.
    public static func clampedDayNumber(_ date: LocalDate) -> Int {
        if date.year < 1 { return storableDates.lowerBound.dayNumber }
        if date.year > 9999 { return storableDates.upperBound.dayNumber }
        return date.dayNumber
    }

    /// A profile's counts are within their bounds (`blocksPerDayRange`, `streakRange`), and its
    /// date and instants are ones every engine keeps.
    public static func check(_ profile: MemberProfile) throws(GroupStoreError) {
        try check(date: profile.day)
        guard profile.blocksToday >= 0, profile.streak >= 0 else {
            throw .invalidValue("A member's blocks and streak cannot be negative.")
        }
        guard blocksPerDayRange.contains(profile.blocksToday), streakRange.contains(profile.streak),
            profile.productiveToday.map(blocksPerDayRange.contains) ?? true
        else {
            throw .invalidValue(
                "A day holds at most \(maximumBlocksPerDay) blocks and a streak \(streakRange.upperBound) days.")
        }
        guard isStorable(profile.lastUpdated), profile.lastActive.map(isStorable) ?? true else {
            throw .invalidValue("A member's last-active and last-updated times must be real instants.")
        }
    }

    /// A day total's counts are within their bounds, and its date is one every engine keeps.
    public static func check(_ total: DayTotal) throws(GroupStoreError) {
        try check(date: total.date)
        guard total.viceBlocks >= 0, total.goalBlocks >= 0 else {
            throw .invalidValue("A day's blocks and goal cannot be negative.")
        }
        guard blocksPerDayRange.contains(total.viceBlocks), dayGoalRange.contains(total.goalBlocks),
            total.productiveBlocks.map(blocksPerDayRange.contains) ?? true
        else {
            throw .invalidValue(
                "A day holds at most \(maximumBlocksPerDay) blocks and a goal of \(dayGoalRange.upperBound).")
        }
    }

    /// Machines one member may have in use at once: a member cannot hide usage, or inflate the
    /// store, by inventing machines.
    public static let machinesPerMember = 4
    /// Machines one member may have in all, removed ones included (a removed one goes once no
    /// day it wrote is kept).
    public static let machinesKeptPerMember = 16

    /// A member's blocks on one day: the sum of their machines', counted once each and capped at
    /// a day's worth, so the sum is always a day total every reader takes.
    public static func sumOfBlocks(_ blocks: some Sequence<Int>) -> Int {
        min(blocks.reduce(0, +), maximumBlocksPerDay)
    }

    /// Whether every engine can keep the instant (to the millisecond, within ±100,000 years).
    public static func isStorable(_ instant: Date) -> Bool {
        instant.timeIntervalSince1970.isFinite && abs(instant.timeIntervalSince1970) < 3e12
    }
}
