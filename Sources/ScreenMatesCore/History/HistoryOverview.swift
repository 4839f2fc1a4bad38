/// What the history screen and the dashboard's sparkline show: the last days against their
/// goals, this week's and this month's totals, the streaks and the days over the limit.
///
/// Today is included, live, as the last day: its blocks and time so far count in the totals,
/// but it counts as neither kept nor over the limit until it ends (its bar says how it stands).
/// A day between the first tracked day and yesterday without a record had no usage; a day
/// before tracking began has no value at all (`nil`), so it is drawn empty rather than as zero.
public struct HistoryOverview: Hashable, Sendable {
    /// One bar of the chart.
    public struct Day: Hashable, Sendable {
        public var date: LocalDate
        /// Vice blocks used, or `nil` for a day before tracking began.
        public var viceBlocks: Int?
        /// The goal that day (today's goal for today).
        public var goal: Int
        public var isToday: Bool

        public init(date: LocalDate, viceBlocks: Int?, goal: Int, isToday: Bool = false) {
            self.date = date
            self.viceBlocks = viceBlocks
            self.goal = goal
            self.isToday = isToday
        }

        /// More blocks than the goal (exactly at the goal is still kept).
        public var isOver: Bool { (viceBlocks ?? 0) > goal }
    }

    /// Sums over a span of days.
    public struct Totals: Hashable, Sendable {
        public var viceBlocks = 0
        public var productiveBlocks = 0
        public var spentSeconds = 0
        public var earnedSeconds = 0
        /// Finished days over the limit (today is not one until it ends).
        public var daysOver = 0
        /// Days counted (tracked days in the span, today included).
        public var days = 0

        public init() {}

        mutating func add(vice: Int, productive: Int, spent: Int, earned: Int, over: Bool) {
            viceBlocks += vice
            productiveBlocks += productive
            spentSeconds += spent
            earnedSeconds += earned
            daysOver += over ? 1 : 0
            days += 1
        }
    }

    /// The last days, oldest first, ending with today.
    public var days: [Day]
    /// This week so far (weeks start on Monday), today included.
    public var week: Totals
    /// This month so far, today included.
    public var month: Totals
    /// Every tracked day, today included.
    public var allTime: Totals
    public var streak: StreakManager.Summary

    public init(days: [Day], week: Totals, month: Totals, allTime: Totals, streak: StreakManager.Summary) {
        self.days = days
        self.week = week
        self.month = month
        self.allTime = allTime
        self.streak = streak
    }

    /// The overview from the archived days and today's live numbers. `trackingStart` is the
    /// first tracked day (days before it have no bar); `chartDays` is how many days the chart shows.
    public init(history: [DayRecord], today: TodaySummary, trackingStart: LocalDate, chartDays: Int = 7) {
        let byDate = Dictionary(history.map { ($0.date, $0) }, uniquingKeysWith: { _, newer in newer })
        let todayDate = today.date
        let first = min(trackingStart, todayDate)
        let weekStart = LeaderboardPeriod.week.firstDay(containing: todayDate)
        let monthStart = LeaderboardPeriod.month.firstDay(containing: todayDate)
        var week = Totals()
        var month = Totals()
        var allTime = Totals()
        func count(_ date: LocalDate, vice: Int, productive: Int, spent: Int, earned: Int, over: Bool) {
            allTime.add(vice: vice, productive: productive, spent: spent, earned: earned, over: over)
            if date >= weekStart {
                week.add(vice: vice, productive: productive, spent: spent, earned: earned, over: over)
            }
            if date >= monthStart {
                month.add(vice: vice, productive: productive, spent: spent, earned: earned, over: over)
            }
        }
        // Every finished day since tracking began: its record, or a day of no usage.
        var date = first
        while date < todayDate {
            if let record = byDate[date] {
                count(
                    date, vice: record.viceBlocks, productive: record.productiveBlocks, spent: record.spentSeconds,
                    earned: record.earnedSeconds, over: !record.keptLimit)
            } else {
                count(date, vice: 0, productive: 0, spent: 0, earned: 0, over: false)
            }
            date = date.adding(days: 1)
        }
        let ledger = today.ledger
        count(
            todayDate, vice: ledger.viceBlocks, productive: ledger.productiveBlocks, spent: ledger.spentSeconds,
            earned: ledger.earnedSeconds, over: false)
        let days = (0..<max(1, chartDays)).reversed().map { back -> Day in
            let date = todayDate.adding(days: -back)
            if back == 0 {
                return Day(date: date, viceBlocks: ledger.viceBlocks, goal: today.progress.goal, isToday: true)
            }
            if let record = byDate[date] {
                return Day(date: date, viceBlocks: record.viceBlocks, goal: record.goalBlocks)
            }
            return Day(date: date, viceBlocks: date >= first ? 0 : nil, goal: today.progress.goal)
        }
        self.init(days: days, week: week, month: month, allTime: allTime, streak: today.streak)
    }
}
