import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// What a daily reset did.
public struct RolloverOutcome: Hashable, Sendable {
    /// The days archived by this call, oldest first, with their streaks. Empty when another
    /// process had already reset today, or when the clock is behind the last reset.
    public let archived: [DayRecord]
    /// Archived days derived again because events for them arrived late.
    public let revised: [DayRecord]
    /// The reset date now recorded.
    public let lastReset: LocalDate
    /// True when the clock's day is before the recorded reset date (a clock set back).
    public let clockIsBehind: Bool
}

extension LocalStore {
    /// Runs the daily reset for the clock's day and brings the history up to date.
    ///
    /// Archives every finished day since the last reset — each exactly once, whichever process
    /// gets there first — with the instants it covers: from the last reset instant to the start
    /// of the next day, so that no instant falls between two days even when the time zone or
    /// the day-start hour changed. Events that arrived after their day was archived (a monitor
    /// catching up while nothing else ran) are added to that day first. All in one IMMEDIATE
    /// transaction: two processes resetting at once queue, and the second finds the work done.
    public func rollOver(clockDay: LocalDate, calendar: DayCalendar, now: Date) throws(StoreError)
        -> RolloverOutcome
    {
        // Most calls find nothing to do: decide that with a read, so that a database that may
        // not be written (read-only) can still be shown.
        if let state = try dayState() {
            let plan = DailyRollover(lastReset: state.resetBase, clockDay: clockDay)
            if plan.newLastReset == state.lastReset && !plan.isReset && state.lastResetAt != nil,
                try !hasLateEvents(state),
                try read({ db in
                    try Self.missingDays(state, db).isEmpty && Self.earlierDays(state, calendar: calendar, db) == nil
                })
            {
                return RolloverOutcome(
                    archived: [], revised: [], lastReset: plan.newLastReset, clockIsBehind: plan.clockIsBehind)
            }
        }
        return try write { db in
            guard var state = try Self.dayState(db), let settings = try Self.settings(db) else {
                throw StoreError.invalidValue("The profile does not exist yet; run setup first.")
            }
            var revisedDays = try Self.archiveEarlierDays(&state, settings: settings, calendar: calendar, now: now, db)
            revisedDays.formUnion(
                try Self.reconcileLateEvents(state, settings: settings, calendar: calendar, now: now, db))
            revisedDays.formUnion(
                try Self.rebuildMissingDays(state, settings: settings, calendar: calendar, now: now, db))
            let plan = DailyRollover(lastReset: state.resetBase, clockDay: clockDay)
            var freshDays = Set<LocalDate>()
            for (day, interval) in plan.archivedIntervals(after: state.lastResetAt, calendar: calendar)
            where day >= state.trackingStart {
                let ledger = DailyLedger.fold(
                    try Self.events(in: interval, db), exchangeRate: settings.rules.exchangeRate)
                let record = DayRecord(
                    date: day, ledger: ledger, goalBlocks: settings.dailyGoalBlocks, interval: interval)
                try Self.upsert(record, archivedAt: now, db)
                freshDays.insert(day)
            }
            let resetAt = plan.newResetInstant(after: state.lastResetAt, calendar: calendar)
            try db.execute(
                sql: """
                    UPDATE profile SET last_reset = ?, last_reset_at = ?,
                        history_seq = (SELECT coalesce(max(seq), 0) FROM usage_event) WHERE id = 1
                    """, arguments: [plan.newLastReset.iso8601, Self.milliseconds(resetAt)])
            let all = try Self.restreak(through: plan.newLastReset.adding(days: -1), from: state.trackingStart, db)
            return RolloverOutcome(
                archived: all.filter { freshDays.contains($0.date) },
                revised: all.filter { revisedDays.contains($0.date) && !freshDays.contains($0.date) },
                lastReset: plan.newLastReset, clockIsBehind: plan.clockIsBehind)
        }
    }

    /// The latest instant this home's data reaches: the start of its current day, its newest
    /// usage event, its newest notice. A clock started before it would go back into days the
    /// home has already lived; `nil` before the profile exists.
    public func latestInstant(calendar: DayCalendar) throws(StoreError) -> Date? {
        try read { db in
            guard let state = try Self.dayState(db) else { return nil }
            let dayStart = state.lastResetAt ?? calendar.start(of: state.resetBase)
            let newest =
                try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT max(coalesce((SELECT max(occurred_at) FROM usage_event), 0),
                            coalesce((SELECT max(at) FROM notice), 0))
                        """) ?? 0
            return max(dayStart, Self.date(milliseconds: newest))
        }
    }

    /// Usage dated before the first tracked day (a monitor catching up, an import of past
    /// usage) as the days it belongs to, worked out without writing: the first day it makes
    /// the tracking start, and a record for every day from it up to the current first day.
    /// `nil` when no event is that early. For a reader that may not write; the next reset
    /// records the same days.
    public func earlierDays(calendar: DayCalendar) throws(StoreError) -> (
        trackingStart: LocalDate, records: [DayRecord]
    )? {
        try read { db in
            guard let state = try Self.dayState(db), let settings = try Self.settings(db),
                let plan = try Self.earlierDays(state, calendar: calendar, db)
            else { return nil }
            return (plan.first, try Self.earlierRecords(plan, settings: settings, calendar: calendar, db))
        }
    }

    /// Days that usage dated before the first tracked day belongs to: from `first` up to the
    /// first tracked day, `start`, which begins at `end` (where the last of them ends).
    struct EarlierDays {
        let first: LocalDate
        let start: LocalDate
        let end: Date
    }

    /// Where the earliest event lies before the first tracked day, if any does. Days further
    /// back than the history keeps day by day are left out, as everywhere.
    static func earlierDays(_ state: DayState, calendar: DayCalendar, _ db: Database) throws -> EarlierDays? {
        let start = state.trackingStart
        let recorded = try Row.fetchOne(
            db, sql: "SELECT start_at FROM day_history WHERE date = ?", arguments: [start.iso8601])
        let recordedStart: Int64? = try recorded?.checkedIfPresent("start_at", in: "day_history")
        let end =
            recordedStart.map(Self.date(milliseconds:))
            ?? (state.lastReset == start ? state.lastResetAt : nil) ?? calendar.start(of: start)
        guard
            let earliest = try Int64.fetchOne(
                db, sql: "SELECT min(occurred_at) FROM usage_event WHERE occurred_at < ?",
                arguments: [milliseconds(end)])
        else { return nil }
        let floor = state.resetBase.adding(days: -DailyRollover.maximumArchivedGap)
        let first = max(calendar.day(containing: date(milliseconds: earliest)), floor)
        return first < start ? EarlierDays(first: first, start: start, end: end) : nil
    }

    /// A record for each of the earlier days, each covering its calendar day, the last one
    /// ending where the first tracked day begins.
    private static func earlierRecords(
        _ plan: EarlierDays, settings: UserSettings, calendar: DayCalendar, _ db: Database
    ) throws -> [DayRecord] {
        var records: [DayRecord] = []
        var lower = calendar.start(of: plan.first)
        var day = plan.first
        while day < plan.start {
            let next = day.adding(days: 1)
            let upper = max(lower, next == plan.start ? plan.end : calendar.start(of: next))
            let ledger = DailyLedger.fold(try events(in: lower..<upper, db), exchangeRate: settings.rules.exchangeRate)
            records.append(
                DayRecord(date: day, ledger: ledger, goalBlocks: settings.dailyGoalBlocks, interval: lower..<upper))
            lower = upper
            day = next
        }
        return records
    }

    /// Archives the days that usage dated before the first tracked day belongs to, and moves
    /// the tracking start back to the first of them (in `state` too). Returns the days written.
    private static func archiveEarlierDays(
        _ state: inout DayState, settings: UserSettings, calendar: DayCalendar, now: Date, _ db: Database
    ) throws -> Set<LocalDate> {
        guard let plan = try earlierDays(state, calendar: calendar, db) else { return [] }
        var written = Set<LocalDate>()
        for record in try earlierRecords(plan, settings: settings, calendar: calendar, db) {
            try upsert(record, archivedAt: now, db)
            written.insert(record.date)
        }
        try db.execute(
            sql: "UPDATE profile SET tracking_start = ? WHERE id = 1", arguments: [plan.first.iso8601])
        state.trackingStart = plan.first
        return written
    }

    /// The history from `start` (or from the first day) to the newest record, oldest first.
    public func history(from start: LocalDate? = nil) throws(StoreError) -> [DayRecord] {
        try read { db in try Self.history(from: start, db) }
    }

    /// Marks the given days as reported to the group store.
    public func markSynced(_ days: [LocalDate]) throws(StoreError) {
        try write { db in
            for day in days {
                try db.execute(sql: "UPDATE day_history SET synced = 1 WHERE date = ?", arguments: [day.iso8601])
            }
        }
    }

    /// When events that belong to archived days but are not counted in the history yet
    /// happened; for a reader that may not write to work out the history as it will be.
    public func lateEventInstants() throws(StoreError) -> [Date] {
        guard let state = try dayState(), let resetAt = state.lastResetAt else { return [] }
        return try read { db in
            try Int64.fetchAll(
                db, sql: "SELECT DISTINCT occurred_at FROM usage_event WHERE seq > ? AND occurred_at < ?",
                arguments: [state.historySequence, Self.milliseconds(resetAt)]
            ).map(Self.date(milliseconds:))
        }
    }

    /// Whether events newer than the history's mark belong to archived days.
    private func hasLateEvents(_ state: DayState) throws(StoreError) -> Bool {
        guard let resetAt = state.lastResetAt else { return false }
        return try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM usage_event WHERE seq > ? AND occurred_at < ?)",
                arguments: [state.historySequence, Self.milliseconds(resetAt)]) ?? false
        }
    }

    /// Finished days, between the first tracked day and the last reset, that have no record:
    /// every one of them was archived once, so a missing one was lost (a row deleted by hand, a
    /// partial recovery) and is derived again from the events.
    static func missingDays(_ state: DayState, _ db: Database) throws -> [LocalDate] {
        guard let lastReset = state.lastReset else { return [] }
        // A pruned day has no events to derive it from again.
        let keptFrom = try PruneState.read(db)?.keptFrom ?? state.trackingStart
        let first = max(state.trackingStart, keptFrom, lastReset.adding(days: -DailyRollover.maximumArchivedGap))
        guard first < lastReset else { return [] }
        let arguments: StatementArguments = [first.iso8601, lastReset.iso8601]
        let stored =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM day_history WHERE date >= ? AND date < ?", arguments: arguments)
            ?? 0
        let expected = first.days(to: lastReset)
        guard stored < expected else { return [] }
        let present = Set(
            try String.fetchAll(
                db, sql: "SELECT date FROM day_history WHERE date >= ? AND date < ?", arguments: arguments))
        return (0..<expected).map { first.adding(days: $0) }.filter { !present.contains($0.iso8601) }
    }

    /// Writes a record for every missing finished day, from the events of its instants: from
    /// where the day before it ended to where the day after it begins (the calendar's bounds
    /// where a neighbour has no record either), so days stay contiguous. The goal of a lost
    /// day is not kept anywhere else; the goal in force now stands in for it.
    private static func rebuildMissingDays(
        _ state: DayState, settings: UserSettings, calendar: DayCalendar, now: Date, _ db: Database
    ) throws -> Set<LocalDate> {
        let missing = try missingDays(state, db)
        guard !missing.isEmpty, let lastReset = state.lastReset else { return [] }
        var intervals: [LocalDate: Range<Date>] = [:]
        for record in try history(from: missing[0].adding(days: -1), db) { intervals[record.date] = record.interval }
        var rebuilt = Set<LocalDate>()
        for day in missing {
            let lower = intervals[day.adding(days: -1)]?.upperBound ?? calendar.start(of: day)
            var upper = intervals[day.adding(days: 1)]?.lowerBound ?? calendar.start(of: day.adding(days: 1))
            if day.adding(days: 1) == lastReset, let resetAt = state.lastResetAt { upper = resetAt }
            let interval = lower..<max(lower, upper)
            let ledger = DailyLedger.fold(try events(in: interval, db), exchangeRate: settings.rules.exchangeRate)
            let record = DayRecord(
                date: day, ledger: ledger, goalBlocks: settings.dailyGoalBlocks, interval: interval)
            try upsert(record, archivedAt: now, db)
            intervals[day] = interval
            rebuilt.insert(day)
        }
        return rebuilt
    }

    /// Derives again every archived day that holds an event newer than the history's mark.
    private static func reconcileLateEvents(
        _ state: DayState, settings: UserSettings, calendar: DayCalendar, now: Date, _ db: Database
    ) throws -> Set<LocalDate> {
        guard let resetAt = state.lastResetAt else { return [] }
        let late = try Int64.fetchAll(
            db, sql: "SELECT DISTINCT occurred_at FROM usage_event WHERE seq > ? AND occurred_at < ?",
            arguments: [state.historySequence, milliseconds(resetAt)])
        guard !late.isEmpty else { return [] }
        let records = try history(from: state.trackingStart, db)
        var changed = Set<LocalDate>()
        for record in records {
            let interval = record.interval ?? calendar.interval(of: record.date)
            let lower = milliseconds(interval.lowerBound)
            let upper = milliseconds(interval.upperBound)
            guard late.contains(where: { $0 >= lower && $0 < upper }) else { continue }
            let ledger = DailyLedger.fold(try events(in: interval, db), exchangeRate: settings.rules.exchangeRate)
            var revised = DayRecord(
                date: record.date, ledger: ledger, goalBlocks: record.goalBlocks, interval: interval)
            revised.streakAfter = record.streakAfter
            var unchanged = record
            unchanged.interval = interval
            unchanged.synced = false
            if revised == unchanged { continue }
            try upsert(revised, archivedAt: now, db)
            changed.insert(record.date)
        }
        return changed
    }

    static func events(in interval: Range<Date>, _ db: Database) throws -> [UsageEvent] {
        try Row.fetchAll(
            db,
            sql: "SELECT * FROM usage_event WHERE occurred_at >= ? AND occurred_at < ? ORDER BY occurred_at, id",
            arguments: [milliseconds(interval.lowerBound), milliseconds(interval.upperBound)]
        ).map(event(from:))
    }

    static func history(from start: LocalDate?, _ db: Database) throws -> [DayRecord] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM day_history WHERE date >= ? ORDER BY date",
            arguments: [(start ?? LocalDate(dayNumber: -1_000_000)).iso8601]
        ).map { row in
            let table = "day_history"
            guard let date = LocalDate(iso8601: try row.checked("date", in: table)) else {
                throw UnreadableValue(table: table, column: "date")
            }
            let startAt: Int64? = try row.checkedIfPresent("start_at", in: table)
            let endAt: Int64? = try row.checkedIfPresent("end_at", in: table)
            var interval: Range<Date>?
            if let startAt, let endAt, startAt <= endAt {
                interval = Self.date(milliseconds: startAt)..<Self.date(milliseconds: endAt)
            }
            return DayRecord(
                date: date, viceBlocks: try row.checked("vice_blocks", in: table),
                productiveBlocks: try row.checked("productive_blocks", in: table),
                goalBlocks: try row.checked("goal_blocks", in: table),
                earnedSeconds: try row.checked("earned_seconds", in: table),
                spentSeconds: try row.checked("spent_seconds", in: table),
                endingBalanceSeconds: try row.checked("ending_balance_seconds", in: table),
                overdraftSeconds: try row.checked("overdraft_seconds", in: table),
                streakAfter: try row.checked("streak_after", in: table), synced: try row.checked("synced", in: table),
                interval: interval)
        }
    }

    static func upsert(_ record: DayRecord, archivedAt: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO day_history (date, vice_blocks, productive_blocks, goal_blocks, earned_seconds,
                    spent_seconds, ending_balance_seconds, overdraft_seconds, streak_after, synced, archived_at,
                    start_at, end_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)
                ON CONFLICT(date) DO UPDATE SET vice_blocks = excluded.vice_blocks,
                    productive_blocks = excluded.productive_blocks, earned_seconds = excluded.earned_seconds,
                    spent_seconds = excluded.spent_seconds, ending_balance_seconds = excluded.ending_balance_seconds,
                    overdraft_seconds = excluded.overdraft_seconds, synced = 0, archived_at = excluded.archived_at,
                    start_at = excluded.start_at, end_at = excluded.end_at, origin = 'own'
                """,
            arguments: [
                record.date.iso8601, record.viceBlocks, record.productiveBlocks, record.goalBlocks,
                record.earnedSeconds, record.spentSeconds, record.endingBalanceSeconds, record.overdraftSeconds,
                record.streakAfter, milliseconds(archivedAt), record.interval.map { milliseconds($0.lowerBound) },
                record.interval.map { milliseconds($0.upperBound) },
            ])
    }

    /// Recomputes `streak_after` for every record and returns them all.
    static func restreak(through lastFinished: LocalDate, from start: LocalDate, _ db: Database) throws
        -> [DayRecord]
    {
        let records = try history(from: start, db)
        let streaked = StreakManager(trackingStart: start).withStreaks(records, through: lastFinished)
        for (old, new) in zip(records, streaked) where old.streakAfter != new.streakAfter {
            try db.execute(
                sql: "UPDATE day_history SET streak_after = ? WHERE date = ?",
                arguments: [new.streakAfter, new.date.iso8601])
        }
        return streaked
    }
}
