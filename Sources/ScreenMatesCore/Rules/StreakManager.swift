/// Current and best streak, computed from the dated history.
///
/// A finished day with vice blocks ≤ its goal extends the streak by one; a day over the goal
/// sets it to zero. A day without a record, between the first tracked day and the last
/// finished one, had no usage and counts as kept: no usage is not a failure.
public struct StreakManager: Sendable {
    /// The first day the user was tracked; days before it do not count.
    public let trackingStart: LocalDate

    public init(trackingStart: LocalDate) {
        self.trackingStart = trackingStart
    }

    public struct Summary: Hashable, Sendable, Codable {
        public var current: Int
        public var best: Int

        public init(current: Int, best: Int) {
            self.current = current
            self.best = best
        }
    }

    /// Today's live status, before the day is finished.
    public enum TodayStatus: String, Hashable, Sendable, Codable {
        /// Below 75 % of the goal.
        case onTrack = "on track"
        /// At 75 % or more, still within the goal.
        case atRisk = "at risk"
        /// Over the goal: the streak will reset at the end of the day.
        case brokenToday = "broken today"

        public init(_ state: LimitState) {
            switch state {
            case .under: self = .onTrack
            case .warning, .critical: self = .atRisk
            case .over: self = .brokenToday
            }
        }
    }

    /// The streak after every day from `trackingStart` through `lastFinished`, with records
    /// for the days that have one. `records` may be in any order and may hold days outside the
    /// range (they are ignored).
    public func streaks(records: [DayRecord], through lastFinished: LocalDate) -> [(date: LocalDate, streak: Int)] {
        guard lastFinished >= trackingStart else { return [] }
        var kept: [LocalDate: Bool] = [:]
        for record in records { kept[record.date] = record.keptLimit }
        var result: [(LocalDate, Int)] = []
        result.reserveCapacity(trackingStart.days(to: lastFinished) + 1)
        var streak = 0
        var day = trackingStart
        while day <= lastFinished {
            streak = (kept[day] ?? true) ? streak + 1 : 0
            result.append((day, streak))
            day = day.adding(days: 1)
        }
        return result
    }

    /// Current (after `lastFinished`) and best streak.
    public func summary(records: [DayRecord], through lastFinished: LocalDate) -> Summary {
        let all = streaks(records: records, through: lastFinished)
        return Summary(current: all.last?.streak ?? 0, best: all.map(\.streak).max() ?? 0)
    }

    /// Records with their `streakAfter` filled in: the shape the rollover archives.
    public func withStreaks(_ records: [DayRecord], through lastFinished: LocalDate) -> [DayRecord] {
        let byDay = Dictionary(
            uniqueKeysWithValues: streaks(records: records, through: lastFinished).map {
                ($0.date, $0.streak)
            })
        return records.map { record in
            var record = record
            record.streakAfter = byDay[record.date] ?? 0
            return record
        }
    }
}
