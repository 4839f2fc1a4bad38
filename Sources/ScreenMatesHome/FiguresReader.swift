import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// Keeps today's figures current from the local store, reading only what changed.
///
/// Today is an interval of instants: from where the last reset left off to the start of the
/// next day. The reader remembers the sequence number of the last event it read and asks the
/// store only for newer ones: an event inside today's interval is applied to the ledger when
/// it comes in order (the usual case), an earlier one in today makes it refold the day, and one
/// before today is added to its archived day — or, dated before the first tracked day, creates
/// the days it belongs to — by the daily reset, run again. When the day changes it runs the
/// daily reset.
///
/// A reader that must not write (`status`, or a read-only database) works the reset out in
/// memory from the same events instead of recording it.
///
/// In a group, the member's other machines count too: what they used, as the group link last
/// read it from the group store (`LocalStore.keepOtherMachineDays`), is added to each day of the
/// history and to today (`summary`), so progress, states, notices, the streak and the week are
/// the member's. `ledger` stays this machine's own: it is what this machine reports.
public final class FiguresReader {
    public let store: LocalStore
    public let clock: any AppClock
    private let timeZone: TimeZoneSource
    private let writes: Bool

    public private(set) var settings: UserSettings
    public private(set) var dayState: DayState
    public private(set) var calendar: DayCalendar
    /// The day shown as today (the clock's day, or the last reset day if the clock is behind).
    public private(set) var today: LocalDate
    /// The instants that belong to today.
    public private(set) var todayInterval: Range<Date>
    /// This machine's own day.
    public private(set) var ledger = DailyLedger()
    /// What the member's other machines used, by day (none without a group).
    public private(set) var otherMachines: [LocalDate: OtherMachinesTotal] = [:]
    public private(set) var history: [DayRecord] = []
    public private(set) var streak = StreakManager.Summary(current: 0, best: 0)
    /// Today's figures, kept up to date with the rest.
    public private(set) var summary: TodaySummary
    /// Total events stored, each counted once.
    public private(set) var eventsApplied = 0
    /// The newest event's time: when the user was last active.
    public private(set) var lastActive: Date?
    /// Why the database cannot be written right now (read-only), if it cannot.
    public private(set) var notWritable: String?

    private var lastSequence: Int64 = 0
    private var otherMachinesVersion: Int64 = -1

    /// Opens the feed on an existing profile and brings it up to date. With `writes` false it
    /// never writes to the store.
    public init(
        store: LocalStore, clock: any AppClock, timeZone: TimeZoneSource, writes: Bool = true
    ) throws(StoreError) {
        self.store = store
        self.clock = clock
        self.timeZone = timeZone
        self.writes = writes
        guard let settings = try store.settings(), let dayState = try store.dayState() else {
            throw .invalidValue("No profile yet: run `screenmates setup --name NAME` or start the dashboard.")
        }
        self.settings = settings
        self.dayState = dayState
        let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour)
        self.calendar = calendar
        let day = calendar.day(containing: clock.now())
        today = day
        todayInterval = calendar.interval(of: day)
        summary = TodaySummary(
            date: day, ledger: DailyLedger(), goal: settings.dailyGoalBlocks, streak: streak,
            nextReset: todayInterval.upperBound)
        try reloadAll()
    }

    /// Brings the figures up to date. Returns true when anything visible may have changed.
    /// `checkTimeZone` asks the system again for its time zone (it is cached otherwise).
    @discardableResult
    public func read(checkTimeZone: Bool = true) throws(StoreError) -> Bool {
        let newSettings = try store.settings() ?? settings
        let zone = checkTimeZone ? timeZone.current() : calendar.timeZone
        let newCalendar = DayCalendar(timeZone: zone, dayStartHour: newSettings.dayStartHour)
        let clockDay = newCalendar.day(containing: clock.now())
        let settingsChanged = newSettings != settings
        settings = newSettings
        let resetDue = DailyRollover(lastReset: dayState.resetBase, clockDay: clockDay).isReset
        let othersChanged = try store.otherMachinesVersion() != otherMachinesVersion
        if newCalendar != calendar || settingsChanged || resetDue || othersChanged
            || DailyRollover.effectiveToday(clockDay: clockDay, lastReset: dayState.lastReset) != today
        {
            calendar = newCalendar
            try reloadAll()
            return true
        }
        return try applyNewEvents()
    }

    /// Vice blocks in each leaderboard period, from history and today.
    public func blocks(in period: LeaderboardPeriod) -> Int { figures.blocks(in: period) }

    /// The figures as they stand, as a value.
    public var figures: UsageFigures {
        UsageFigures(
            settings: settings, dayState: dayState, calendar: calendar, today: today, todayInterval: todayInterval,
            ledger: ledger, history: history, summary: summary, eventsApplied: eventsApplied, lastActive: lastActive,
            notWritable: notWritable)
    }

    /// Runs the daily reset if due, then reloads everything from the store.
    private func reloadAll() throws(StoreError) {
        let clockDay = calendar.day(containing: clock.now())
        var pending: [DayRecord] = []
        var pendingResetAt: Date?
        if writes {
            do {
                _ = try store.rollOver(clockDay: clockDay, calendar: calendar, now: clock.now())
                notWritable = nil
            } catch {
                // A database we may only read is still shown: the reset it cannot record is
                // worked out here, from the same events, and recorded by whoever can write.
                guard case .notWritable(_, let detail) = error else { throw error }
                notWritable = detail
            }
        }
        guard var state = try store.dayState() else { return }
        let plan = DailyRollover(lastReset: state.resetBase, clockDay: clockDay)
        if plan.isReset || state.lastReset == nil {
            (pending, pendingResetAt) = try unrecordedReset(plan, state: state)
            state.lastReset = plan.newLastReset
            state.lastResetAt = pendingResetAt
        }
        var earlier: [DayRecord] = []
        if !writes || notWritable != nil, let found = try store.earlierDays(calendar: calendar) {
            state.trackingStart = found.trackingStart
            earlier = found.records
        }
        dayState = state
        today = DailyRollover.effectiveToday(clockDay: clockDay, lastReset: state.lastReset)
        todayInterval = DailyRollover.todayInterval(today: today, resetInstant: state.lastResetAt, calendar: calendar)
        let lastFinished = (state.lastReset ?? today).adding(days: -1)
        let manager = StreakManager(trackingStart: state.trackingStart)
        var records = try store.history(from: state.trackingStart)
        if !writes || notWritable != nil { records = try withLateEvents(records) }
        otherMachinesVersion = try store.otherMachinesVersion()
        otherMachines = settings.group == nil ? [:] : try store.otherMachinesTotals()
        let own = earlier + records + pending
        history = manager.withStreaks(
            DayRecord.memberDays(
                own, otherMachines: otherMachines, from: state.trackingStart, through: lastFinished,
                goal: settings.dailyGoalBlocks, blockSeconds: settings.rules.blockSeconds,
                exchangeRate: settings.rules.exchangeRate),
            through: lastFinished)
        streak = manager.summary(records: history, through: lastFinished)
        try reloadToday()
    }

    /// Archived records with the events that arrived after them counted in, without writing.
    private func withLateEvents(_ records: [DayRecord]) throws(StoreError) -> [DayRecord] {
        let late = try store.lateEventInstants()
        guard !late.isEmpty else { return records }
        var result: [DayRecord] = []
        for record in records {
            guard let interval = record.interval, late.contains(where: interval.contains) else {
                result.append(record)
                continue
            }
            let ledger = DailyLedger.fold(try store.events(in: interval), exchangeRate: settings.rules.exchangeRate)
            result.append(
                DayRecord(date: record.date, ledger: ledger, goalBlocks: record.goalBlocks, interval: interval))
        }
        return result
    }

    /// The records and the reset instant a reset due now would give, worked out without
    /// writing anything.
    private func unrecordedReset(_ plan: DailyRollover, state: DayState) throws(StoreError) -> ([DayRecord], Date) {
        var records: [DayRecord] = []
        for (day, interval) in plan.archivedIntervals(after: state.lastResetAt, calendar: calendar)
        where day >= state.trackingStart {
            let ledger = DailyLedger.fold(try store.events(in: interval), exchangeRate: settings.rules.exchangeRate)
            records.append(
                DayRecord(date: day, ledger: ledger, goalBlocks: settings.dailyGoalBlocks, interval: interval))
        }
        return (records, plan.newResetInstant(after: state.lastResetAt, calendar: calendar))
    }

    private func reloadToday() throws(StoreError) {
        let snapshot = try store.snapshot(of: todayInterval)
        ledger = DailyLedger.fold(snapshot.events, exchangeRate: settings.rules.exchangeRate)
        lastSequence = snapshot.latestSequence
        eventsApplied = snapshot.eventCount
        lastActive = snapshot.lastOccurredAt
        updateSummary()
    }

    private func applyNewEvents() throws(StoreError) -> Bool {
        let fresh = try store.events(after: lastSequence)
        guard !fresh.isEmpty else { return false }
        var refold = false
        var late = false
        for stored in fresh {
            let event = stored.event
            lastSequence = max(lastSequence, stored.sequence)
            eventsApplied += 1
            lastActive = max(lastActive ?? event.occurredAt, event.occurredAt)
            if todayInterval.contains(event.occurredAt) {
                if !ledger.apply(event, exchangeRate: settings.rules.exchangeRate) { refold = true }
            } else if event.occurredAt < todayInterval.lowerBound {
                late = true
            }
        }
        if refold {
            ledger = DailyLedger.fold(try store.events(in: todayInterval), exchangeRate: settings.rules.exchangeRate)
        }
        if late {
            // An archived day, or one before the first tracked day, changed: the reset brings
            // the history up to date (or works it out, when it may not write).
            try reloadAll()
            return true
        }
        updateSummary()
        return true
    }

    private func updateSummary() {
        let others = otherMachines[today]
        let member =
            others.map {
                ledger.withOtherMachines(
                    viceBlocks: $0.viceBlocks, productiveBlocks: $0.productiveBlocks,
                    blockSeconds: settings.rules.blockSeconds, exchangeRate: settings.rules.exchangeRate)
            } ?? ledger
        summary = TodaySummary(
            date: today, ledger: member,
            goal: settings.dailyGoalBlocks, streak: streak, nextReset: todayInterval.upperBound,
            otherMachinesBlocks: others?.viceBlocks ?? 0)
    }
}
