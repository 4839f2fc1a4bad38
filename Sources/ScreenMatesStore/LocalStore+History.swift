import Foundation
import GRDB
import ScreenMatesCore

/// What a daily reset did.
public struct RolloverOutcome: Hashable, Sendable {
    /// The days archived by this call, oldest first, with their streaks. Empty when another
    /// process had already reset today, or when the clock is behind the last reset.
    public let archived: [DayRecord]
    /// The reset date now recorded.
    public let lastReset: LocalDate
    /// True when the clock's day is before the recorded reset date (a clock set back).
    public let clockIsBehind: Bool
}

extension LocalStore {
    /// Runs the daily reset for the clock's day: archives every finished day since the last
    /// reset (each exactly once, whichever process gets there first) and records the reset.
    ///
    /// The whole reset is one IMMEDIATE transaction: two processes resetting at the same moment
    /// queue, and the second finds the work done.
    public func rollOver(clockDay: LocalDate, calendar: DayCalendar, now: Date = Date()) throws(StoreError)
        -> RolloverOutcome
    {
        // Most calls find nothing to do: decide that with a read, so that a database that may
        // not be written (read-only) can still be shown.
        if let state = try dayState() {
            let plan = DailyRollover(lastReset: state.resetBase, clockDay: clockDay)
            if plan.newLastReset == state.lastReset && !plan.isReset {
                return RolloverOutcome(archived: [], lastReset: plan.newLastReset, clockIsBehind: plan.clockIsBehind)
            }
        }
        return try write { db in
            guard let state = try Self.dayState(db), let settings = try Self.settings(db) else {
                throw StoreError.invalidValue("The profile does not exist yet; run setup first.")
            }
            let plan = DailyRollover(lastReset: state.resetBase, clockDay: clockDay)
            guard plan.newLastReset != state.lastReset || plan.isReset else {
                return RolloverOutcome(archived: [], lastReset: plan.newLastReset, clockIsBehind: plan.clockIsBehind)
            }
            var fresh: [DayRecord] = []
            for day in plan.daysToArchive where day >= state.trackingStart {
                let events = try Self.events(in: calendar.interval(of: day), db)
                let ledger = DailyLedger.fold(events, exchangeRate: settings.rules.exchangeRate)
                fresh.append(DayRecord(date: day, ledger: ledger, goalBlocks: settings.rules.dailyGoalBlocks))
            }
            for record in fresh { try Self.upsert(record, archivedAt: now, db) }
            try db.execute(
                sql: "UPDATE profile SET last_reset = ? WHERE id = 1", arguments: [plan.newLastReset.iso8601])
            let all = try Self.restreak(through: plan.newLastReset.adding(days: -1), from: state.trackingStart, db)
            let freshDays = Set(fresh.map(\.date))
            return RolloverOutcome(
                archived: all.filter { freshDays.contains($0.date) }, lastReset: plan.newLastReset,
                clockIsBehind: plan.clockIsBehind)
        }
    }

    /// Derives the records of already-archived days again from their events — for events that
    /// arrived after their day was archived (a monitor catching up, a clock set back). Changed
    /// days are marked unsynced. Returns the records that changed.
    @discardableResult
    public func refreshHistory(days: Set<LocalDate>, calendar: DayCalendar, now: Date = Date()) throws(StoreError)
        -> [DayRecord]
    {
        guard !days.isEmpty else { return [] }
        return try write { db in
            guard let state = try Self.dayState(db), let lastReset = state.lastReset,
                let settings = try Self.settings(db)
            else { return [] }
            let existing = Dictionary(
                uniqueKeysWithValues: try Self.history(from: state.trackingStart, db).map { ($0.date, $0) })
            var changedDays = Set<LocalDate>()
            for day in days.sorted() where day >= state.trackingStart && day < lastReset {
                let ledger = DailyLedger.fold(
                    try Self.events(in: calendar.interval(of: day), db), exchangeRate: settings.rules.exchangeRate)
                let goal = existing[day]?.goalBlocks ?? settings.rules.dailyGoalBlocks
                var record = DayRecord(date: day, ledger: ledger, goalBlocks: goal)
                record.streakAfter = existing[day]?.streakAfter ?? 0
                if var old = existing[day] {
                    old.synced = false
                    if old == record { continue }
                }
                try Self.upsert(record, archivedAt: now, db)
                changedDays.insert(day)
            }
            guard !changedDays.isEmpty else { return [] }
            let all = try Self.restreak(through: lastReset.adding(days: -1), from: state.trackingStart, db)
            return all.filter { changedDays.contains($0.date) }
        }
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
            guard let date = LocalDate(iso8601: row["date"]) else {
                throw StoreError.damaged(path: "day_history", detail: "a history date cannot be read")
            }
            return DayRecord(
                date: date, viceBlocks: row["vice_blocks"], productiveBlocks: row["productive_blocks"],
                goalBlocks: row["goal_blocks"], earnedSeconds: row["earned_seconds"],
                spentSeconds: row["spent_seconds"], endingBalanceSeconds: row["ending_balance_seconds"],
                overdraftSeconds: row["overdraft_seconds"], streakAfter: row["streak_after"], synced: row["synced"])
        }
    }

    private static func upsert(_ record: DayRecord, archivedAt: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO day_history (date, vice_blocks, productive_blocks, goal_blocks, earned_seconds,
                    spent_seconds, ending_balance_seconds, overdraft_seconds, streak_after, synced, archived_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
                ON CONFLICT(date) DO UPDATE SET vice_blocks = excluded.vice_blocks,
                    productive_blocks = excluded.productive_blocks, earned_seconds = excluded.earned_seconds,
                    spent_seconds = excluded.spent_seconds, ending_balance_seconds = excluded.ending_balance_seconds,
                    overdraft_seconds = excluded.overdraft_seconds, synced = 0, archived_at = excluded.archived_at
                """,
            arguments: [
                record.date.iso8601, record.viceBlocks, record.productiveBlocks, record.goalBlocks,
                record.earnedSeconds, record.spentSeconds, record.endingBalanceSeconds, record.overdraftSeconds,
                record.streakAfter, milliseconds(archivedAt),
            ])
    }

    /// Recomputes `streak_after` for every record and returns them all.
    private static func restreak(through lastFinished: LocalDate, from start: LocalDate, _ db: Database) throws
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
