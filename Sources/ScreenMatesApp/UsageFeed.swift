import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// Keeps today's figures current from the local store, reading only what changed.
///
/// It remembers the sequence number of the last event it applied and asks the store only for
/// newer ones. An event for today is applied to the ledger when it comes in order (the usual
/// case); an older one makes it refold the day from the store; one for an archived day makes
/// the store derive that day's record again. When the day changes it runs the daily reset.
public final class UsageFeed {
    public let store: LocalStore
    public let clock: any AppClock
    private let timeZone: @Sendable () -> TimeZone

    public private(set) var settings: UserSettings
    public private(set) var dayState: DayState
    public private(set) var calendar: DayCalendar
    /// The day shown as today (the clock's day, or the last reset day if the clock is behind).
    public private(set) var today: LocalDate
    public private(set) var ledger = DailyLedger()
    public private(set) var history: [DayRecord] = []
    public private(set) var streak = StreakManager.Summary(current: 0, best: 0)
    /// Total events stored, each counted once.
    public private(set) var eventsApplied = 0
    /// The newest event's time: when the user was last active.
    public private(set) var lastActive: Date?
    /// Days archived by the resets this feed ran, oldest first (for the reset notice).
    public private(set) var lastRollover: RolloverOutcome?
    /// Why the database cannot be written right now (read-only), if it cannot.
    public private(set) var notWritable: String?

    private var lastSequence: Int64 = 0

    /// Opens the feed on an existing profile and brings it up to date.
    public init(store: LocalStore, clock: any AppClock, timeZone: @escaping @Sendable () -> TimeZone) throws(StoreError)
    {
        self.store = store
        self.clock = clock
        self.timeZone = timeZone
        guard let settings = try store.settings(), let dayState = try store.dayState() else {
            throw .invalidValue("No profile yet: run `screenmates setup --name NAME` or start the dashboard.")
        }
        self.settings = settings
        self.dayState = dayState
        self.calendar = DayCalendar(timeZone: timeZone(), dayStartHour: settings.dayStartHour)
        self.today = calendar.day(containing: clock.now())
        try reloadAll()
    }

    /// Brings the figures up to date. Returns true when anything visible may have changed.
    @discardableResult
    public func refresh() throws(StoreError) -> Bool {
        let newSettings = try store.settings() ?? settings
        let newCalendar = DayCalendar(timeZone: timeZone(), dayStartHour: newSettings.dayStartHour)
        let clockDay = newCalendar.day(containing: clock.now())
        let settingsChanged = newSettings != settings
        settings = newSettings
        if newCalendar != calendar || clockDay > (dayState.lastReset ?? clockDay) || settingsChanged
            || DailyRollover.effectiveToday(clockDay: clockDay, lastReset: dayState.lastReset) != today
        {
            calendar = newCalendar
            try reloadAll()
            return true
        }
        return try applyNewEvents()
    }

    /// Today's numbers.
    public var summary: TodaySummary {
        TodaySummary(
            date: today, ledger: ledger, goal: settings.rules.dailyGoalBlocks, streak: streak,
            nextReset: calendar.start(of: today.adding(days: 1)))
    }

    /// Vice blocks in each leaderboard period, from history and today.
    public func blocks(in period: LeaderboardPeriod) -> Int {
        let first = period.firstDay(containing: today)
        return history.filter { $0.date >= first && $0.date < today }.reduce(ledger.viceBlocks) { $0 + $1.viceBlocks }
    }

    /// Runs the daily reset if due, then reloads everything from the store.
    private func reloadAll() throws(StoreError) {
        let clockDay = calendar.day(containing: clock.now())
        var pending: [DayRecord] = []
        do {
            let outcome = try store.rollOver(clockDay: clockDay, calendar: calendar, now: clock.now())
            if !outcome.archived.isEmpty { lastRollover = outcome }
            notWritable = nil
        } catch {
            // A database we may only read is still shown: the reset it cannot record is worked
            // out here, from the same events, and recorded by whoever can write it later.
            guard case .notWritable(_, let detail) = error else { throw error }
            notWritable = detail
            pending = try unrecordedReset(clockDay: clockDay)
        }
        guard var state = try store.dayState() else { return }
        if !pending.isEmpty || state.lastReset == nil {
            state.lastReset = DailyRollover(lastReset: state.resetBase, clockDay: clockDay).newLastReset
        }
        dayState = state
        today = DailyRollover.effectiveToday(clockDay: clockDay, lastReset: state.lastReset)
        history = try store.history(from: state.trackingStart) + pending
        let lastFinished = (state.lastReset ?? today).adding(days: -1)
        let manager = StreakManager(trackingStart: state.trackingStart)
        history = manager.withStreaks(history, through: lastFinished)
        streak = manager.summary(records: history, through: lastFinished)
        try reloadToday()
    }

    /// The records a reset due now would archive, derived without writing anything.
    private func unrecordedReset(clockDay: LocalDate) throws(StoreError) -> [DayRecord] {
        guard let state = try store.dayState() else { return [] }
        let plan = DailyRollover(lastReset: state.resetBase, clockDay: clockDay)
        var records: [DayRecord] = []
        for day in plan.daysToArchive where day >= state.trackingStart {
            let ledger = DailyLedger.fold(
                try store.events(in: calendar.interval(of: day)), exchangeRate: settings.rules.exchangeRate)
            records.append(DayRecord(date: day, ledger: ledger, goalBlocks: settings.rules.dailyGoalBlocks))
        }
        return records
    }

    private func reloadToday() throws(StoreError) {
        let snapshot = try store.snapshot(of: calendar.interval(of: today))
        ledger = DailyLedger.fold(snapshot.events, exchangeRate: settings.rules.exchangeRate)
        lastSequence = snapshot.latestSequence
        eventsApplied = snapshot.eventCount
        lastActive = snapshot.lastOccurredAt
    }

    private func applyNewEvents() throws(StoreError) -> Bool {
        let fresh = try store.events(after: lastSequence)
        guard !fresh.isEmpty else { return false }
        var refold = false
        var lateDays = Set<LocalDate>()
        for stored in fresh {
            let event = stored.event
            lastSequence = max(lastSequence, stored.sequence)
            eventsApplied += 1
            lastActive = max(lastActive ?? event.occurredAt, event.occurredAt)
            let day = calendar.day(containing: event.occurredAt)
            if day == today {
                if !ledger.apply(event, exchangeRate: settings.rules.exchangeRate) { refold = true }
            } else if day < today {
                lateDays.insert(day)
            }
        }
        if refold {
            ledger = DailyLedger.fold(
                try store.events(in: calendar.interval(of: today)), exchangeRate: settings.rules.exchangeRate)
        }
        if !lateDays.isEmpty {
            try store.refreshHistory(days: lateDays, calendar: calendar, now: clock.now())
            history = try store.history(from: dayState.trackingStart)
            streak = StreakManager(trackingStart: dayState.trackingStart).summary(
                records: history, through: (dayState.lastReset ?? today).adding(days: -1))
        }
        return true
    }
}
