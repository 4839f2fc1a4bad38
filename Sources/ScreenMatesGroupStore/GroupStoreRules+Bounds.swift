import Foundation
import ScreenMatesCore

/// The largest value each count a group store holds can honestly take, in one place: what a
/// store refuses to write and what a reader leaves out (`StoredGroupRow`), so the two never
/// disagree. Each bound is what the product can produce, with room to spare, and small enough
/// that a group's sums stay far from overflowing even before they saturate.
extension GroupStoreRules {
    /// The most blocks a day holds: 24 hours of the shortest block (1 minute).
    public static let maximumBlocksPerDay = 24 * 60 / UsageRules.blockMinutesRange.lowerBound

    /// The blocks of one day: from none to a whole day of the shortest blocks.
    public static let blocksPerDayRange = 0...maximumBlocksPerDay

    /// A day's goal as a day total keeps it (0 in totals written before goals were kept).
    public static let dayGoalRange = 0...UsageRules.dailyGoalRange.upperBound

    /// A streak: at most a hundred years of days, far more than anyone keeps one.
    public static let streakRange = 0...36_525

    /// A member's coins: a billion is more than 10,000 coins a day for 270 years.
    public static let coinsRange = 0...1_000_000_000

    /// A member's badges: far more than there are kinds of badge (each is earned once).
    public static let badgesRange = 0...1000

    /// The days of a week a settled week counts (kept, over or missing, each and together).
    public static let weekDaysRange = 0...7

    /// Milliseconds since 1970 of an instant every engine keeps (`isStorable`).
    public static let storableMilliseconds: ClosedRange<Int64> = -2_999_999_999_999_999...2_999_999_999_999_999

    /// The day numbers of `storableDates`.
    public static let storableDayNumbers = storableDates.lowerBound.dayNumber...storableDates.upperBound.dayNumber
}
