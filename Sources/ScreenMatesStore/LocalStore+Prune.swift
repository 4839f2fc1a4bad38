import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// What a prune did.
public struct PruneReport: Hashable, Sendable {
    /// The days whose events were folded into their rows, oldest first.
    public var days: [LocalDate] = []
    public var events = 0
    /// The database's size (with its write-ahead log) before and after, in bytes.
    public var bytesBefore: Int64 = 0
    public var bytesAfter: Int64 = 0
    /// The first day whose events are kept.
    public var keptFrom: LocalDate?
}

/// How far pruning went: read with the counts and the instant of the newest event, which the
/// figures go on counting after the events are gone.
struct PruneState: Hashable, Sendable {
    var keptFrom: LocalDate
    var sealedBefore: Int64
    var events: Int
    var lastOccurredAt: Int64?

    static func read(_ db: Database) throws -> PruneState? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM prune_state WHERE id = 1") else { return nil }
        let table = "prune_state"
        guard let keptFrom = LocalDate(iso8601: try row.checked("kept_from", in: table)) else {
            throw UnreadableValue(table: table, column: "kept_from")
        }
        return PruneState(
            keptFrom: keptFrom, sealedBefore: try row.checked("sealed_before", in: table),
            events: try row.checked("events", in: table),
            lastOccurredAt: try row.checkedIfPresent("last_occurred_at", in: table))
    }
}

extension LocalStore {
    /// The fewest days whose events a prune keeps.
    public static let minimumKeptDays = 7

    /// Folds the events of finished, archived days older than the last `keepDays` days before
    /// `today` into their day rows: each day's per-app blocks and seconds are kept in a summary
    /// (the export's per-app columns), the event ids in a list (a late copy of a pruned event is
    /// refused, as are new events dated in a pruned day: such a day is sealed), and the rest of
    /// each figure is in its day row already. A day an undecided challenge covers, or that holds
    /// events not yet counted in the history, is kept. Then the file is compacted (`VACUUM`).
    public func prune(keepDays: Int, today: LocalDate, calendar: DayCalendar, compact: Bool = true) throws(StoreError)
        -> PruneReport
    {
        guard keepDays >= Self.minimumKeptDays else {
            throw .invalidValue("A prune keeps at least the last \(Self.minimumKeptDays) days; \(keepDays) is fewer.")
        }
        var report = PruneReport()
        report.bytesBefore = fileBytes()
        try write { db in
            guard let state = try Self.dayState(db), let lastReset = state.lastReset, let resetAt = state.lastResetAt
            else { return }
            var horizon = min(today.adding(days: -keepDays), lastReset)
            // An undecided challenge is judged from its days' events.
            if let first = try Int.fetchOne(db, sql: "SELECT min(first_day) FROM challenge WHERE outcome IS NULL") {
                horizon = min(horizon, LocalDate(dayNumber: first))
            }
            // Events not counted in the history yet (the next reset reconciles them).
            if let late = try Int64.fetchOne(
                db, sql: "SELECT min(occurred_at) FROM usage_event WHERE seq > ? AND occurred_at < ?",
                arguments: [state.historySequence, Self.milliseconds(resetAt)])
            {
                horizon = min(horizon, calendar.day(containing: Self.date(milliseconds: late)))
            }
            let earlier = try PruneState.read(db)
            let records = try Self.history(from: earlier?.keptFrom, db).filter { $0.date < horizon }
            guard let last = records.last else {
                report.keptFrom = earlier?.keptFrom
                return
            }
            var pruned = 0
            var newest = earlier?.lastOccurredAt
            for record in records {
                let interval = record.interval ?? calendar.interval(of: record.date)
                let arguments: StatementArguments = [
                    Self.milliseconds(interval.lowerBound), Self.milliseconds(interval.upperBound),
                ]
                try db.execute(
                    sql: """
                        INSERT INTO day_app_usage (date, app_id, category, blocks, seconds)
                        SELECT ?, app_id, category, count(*), sum(seconds) FROM usage_event
                        WHERE occurred_at >= ? AND occurred_at < ? GROUP BY app_id, category
                        ON CONFLICT (date, app_id, category) DO UPDATE SET
                            blocks = blocks + excluded.blocks, seconds = seconds + excluded.seconds
                        """, arguments: [record.date.iso8601] + arguments)
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO pruned_event (id, seq)
                        SELECT id, seq FROM usage_event WHERE occurred_at >= ? AND occurred_at < ?
                        """, arguments: arguments)
                if let latest = try Int64.fetchOne(
                    db, sql: "SELECT max(occurred_at) FROM usage_event WHERE occurred_at >= ? AND occurred_at < ?",
                    arguments: arguments)
                {
                    newest = max(newest ?? latest, latest)
                }
                try db.execute(
                    sql: "DELETE FROM usage_event WHERE occurred_at >= ? AND occurred_at < ?", arguments: arguments)
                pruned += db.changesCount
                report.days.append(record.date)
            }
            let lastInterval = last.interval ?? calendar.interval(of: last.date)
            let sealed = max(earlier?.sealedBefore ?? Int64.min, Self.milliseconds(lastInterval.upperBound))
            report.keptFrom = last.date.adding(days: 1)
            report.events = pruned
            try db.execute(
                sql: """
                    INSERT INTO prune_state (id, kept_from, sealed_before, events, last_occurred_at)
                    VALUES (1, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET kept_from = excluded.kept_from,
                        sealed_before = excluded.sealed_before, events = events + excluded.events,
                        last_occurred_at = excluded.last_occurred_at
                    """,
                arguments: [last.date.adding(days: 1).iso8601, sealed, pruned, newest])
        }
        if compact, !report.days.isEmpty { try self.compact() }
        report.bytesAfter = fileBytes()
        return report
    }

    /// Each app's blocks and seconds on a pruned day (empty for a day whose events are kept).
    public func prunedAppUsage(on day: LocalDate) throws(StoreError) -> [(
        appID: String, category: AppCategory, blocks: Int, seconds: Int
    )] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM day_app_usage WHERE date = ? ORDER BY category, app_id",
                arguments: [day.iso8601]
            ).compactMap { row in
                let category: String = try row.checked("category", in: "day_app_usage")
                guard let category = AppCategory(rawValue: category) else { return nil }
                return (
                    try row.checked("app_id", in: "day_app_usage"), category,
                    try row.checked("blocks", in: "day_app_usage"), try row.checked("seconds", in: "day_app_usage")
                )
            }
        }
    }

    /// The first day whose events are kept, once anything was pruned.
    public func keptFrom() throws(StoreError) -> LocalDate? {
        try read { db in try PruneState.read(db)?.keptFrom }
    }

    /// The database file and its write-ahead log, in bytes.
    func fileBytes() -> Int64 {
        [path, path + "-wal"].reduce(Int64(0)) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }

    /// Rewrites the file without its free pages, and empties the write-ahead log.
    private func compact() throws(StoreError) {
        do {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch {
            throw StoreError.from(error, path: path)
        }
    }
}

/// What a pruned home holds of its pruned days, for `recover` to carry into a fresh database: the
/// day rows, their per-app summary, the removed events' ids (with their places in the append order,
/// which are not lost events) and how far the pruning went.
struct PrunedDays {
    var state: PruneState
    var history: [DayRecord]
    var appUsage: [(date: String, appID: String, category: String, blocks: Int, seconds: Int)]
    var events: [(id: String, seq: Int64)]

    /// What `db` holds of them; nil when nothing was pruned. Rows that cannot be read are left out.
    static func read(_ db: Database) -> PrunedDays? {
        guard let state = try? PruneState.read(db) else { return nil }
        let history = ((try? LocalStore.history(from: nil, db)) ?? []).filter { $0.date < state.keptFrom }
        let usage = ((try? Row.fetchAll(db, sql: "SELECT * FROM day_app_usage")) ?? []).compactMap {
            row -> (String, String, String, Int, Int)? in
            guard let date: String = try? row.checked("date", in: "day_app_usage"),
                let app: String = try? row.checked("app_id", in: "day_app_usage"),
                let category: String = try? row.checked("category", in: "day_app_usage"),
                let blocks: Int = try? row.checked("blocks", in: "day_app_usage"),
                let seconds: Int = try? row.checked("seconds", in: "day_app_usage")
            else { return nil }
            return (date, app, category, blocks, seconds)
        }
        let events = ((try? Row.fetchAll(db, sql: "SELECT id, seq FROM pruned_event ORDER BY seq")) ?? []).compactMap {
            row -> (String, Int64)? in
            guard let id: String = try? row.checked("id", in: "pruned_event"),
                let seq: Int64 = try? row.checked("seq", in: "pruned_event")
            else { return nil }
            return (id, seq)
        }
        return PrunedDays(state: state, history: history, appUsage: usage, events: events)
    }
}

extension LocalStore {
    /// Writes what `recover` saved of a home's pruned days, before its events.
    func restore(_ pruned: PrunedDays, now: Date) throws(StoreError) {
        try write { db in
            for record in pruned.history { try Self.upsert(record, archivedAt: now, db) }
            for usage in pruned.appUsage where usage.blocks > 0 && usage.seconds > 0 {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO day_app_usage (date, app_id, category, blocks, seconds)
                        VALUES (?, ?, ?, ?, ?)
                        """, arguments: [usage.date, usage.appID, usage.category, usage.blocks, usage.seconds])
            }
            for event in pruned.events {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO pruned_event (id, seq) VALUES (?, ?)", arguments: [event.id, event.seq])
            }
            let state = pruned.state
            // The history goes on from the first day kept: the pruned days are never derived again.
            try db.execute(
                sql: """
                    UPDATE profile SET last_reset = ?, last_reset_at = ?
                    WHERE id = 1 AND (last_reset IS NULL OR last_reset < ?)
                    """, arguments: [state.keptFrom.iso8601, state.sealedBefore, state.keptFrom.iso8601])
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO prune_state (id, kept_from, sealed_before, events, last_occurred_at)
                    VALUES (1, ?, ?, ?, ?)
                    """, arguments: [state.keptFrom.iso8601, state.sealedBefore, state.events, state.lastOccurredAt])
        }
    }
}
