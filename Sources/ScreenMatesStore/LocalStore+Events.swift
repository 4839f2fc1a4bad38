import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// A stored event with its place in the store's append order.
public struct StoredEvent: Hashable, Sendable {
    /// Increases with every new event; readers remember the last one they saw and ask only for
    /// what came after, never re-reading the whole table.
    public let sequence: Int64
    public let event: UsageEvent
}

extension LocalStore: UsageEventSink {
    /// Stores events in one transaction. An event whose id is already stored is ignored, so
    /// delivering the same events again (a monitor retrying after a crash) changes nothing.
    /// Returns the number of new events; when it returns they are committed.
    @discardableResult
    public func record(_ events: [UsageEvent]) throws(StoreError) -> Int {
        guard !events.isEmpty else { return 0 }
        for event in events where !UsageEvent.secondsRange.contains(event.seconds) {
            throw .invalidValue(
                "A usage event stands for 1 to \(UsageEvent.secondsRange.upperBound) seconds; \(event.id) has \(event.seconds)."
            )
        }
        let now = Self.milliseconds(Date())
        return try write { db in
            var inserted = 0
            // An event of a pruned day is refused like one stored already: its id is kept, and
            // the day is sealed (its row is final). A refused event takes no place in the append
            // order (a conflicting insert would use one up), so a gap there is a lost row.
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO usage_event (id, app_id, category, seconds, occurred_at, recorded_at)
                    SELECT ?1, ?2, ?3, ?4, ?5, ?6
                    WHERE NOT EXISTS (SELECT 1 FROM usage_event WHERE id = ?1)
                        AND NOT EXISTS (SELECT 1 FROM pruned_event WHERE id = ?1)
                        AND ?5 >= coalesce((SELECT sealed_before FROM prune_state WHERE id = 1), ?5)
                    ON CONFLICT(id) DO NOTHING
                    """)
            for event in events {
                try statement.execute(arguments: [
                    event.id.uuidString, event.appID, event.category.rawValue, event.seconds,
                    Self.milliseconds(event.occurredAt), now,
                ])
                inserted += db.changesCount
            }
            return inserted
        }
    }

    /// Events that occurred in `interval`, in ledger order.
    public func events(in interval: Range<Date>) throws(StoreError) -> [UsageEvent] {
        try read { db in try Self.events(in: interval, db) }
    }

    /// Events stored after `sequence`, oldest first, at most `limit`.
    public func events(after sequence: Int64, limit: Int = 10_000) throws(StoreError) -> [StoredEvent] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM usage_event WHERE seq > ? ORDER BY seq LIMIT ?",
                arguments: [sequence, limit]
            ).map { StoredEvent(sequence: try $0.checked("seq", in: "usage_event"), event: try Self.event(from: $0)) }
        }
    }

    /// The sequence number of the newest stored event (0 when there is none).
    public func latestSequence() throws(StoreError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM usage_event") ?? 0 }
    }

    /// How many events are stored.
    public func eventCount() throws(StoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM usage_event") ?? 0 }
    }

    /// SQLite's full integrity check: `["ok"]` for a sound database.
    public func integrityCheck() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// Every stored event id; for checks and recovery.
    public func allEventIDs() throws(StoreError) -> [UUID] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT id FROM usage_event ORDER BY seq").compactMap(UUID.init(uuidString:))
        }
    }

    static func event(from row: Row) throws -> UsageEvent {
        let table = "usage_event"
        let idText: String = try row.checked("id", in: table)
        let categoryText: String = try row.checked("category", in: table)
        let seconds: Int = try row.checked("seconds", in: table)
        guard let id = UUID(uuidString: idText) else { throw UnreadableValue(table: table, column: "id") }
        guard let category = AppCategory(rawValue: categoryText) else {
            throw UnreadableValue(table: table, column: "category")
        }
        guard UsageEvent.secondsRange.contains(seconds) else { throw UnreadableValue(table: table, column: "seconds") }
        return UsageEvent(
            id: id, appID: try row.checked("app_id", in: table), category: category, seconds: seconds,
            occurredAt: date(milliseconds: try row.checked("occurred_at", in: table)))
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

/// A consistent view of one day's events and where the event log stands, read in one
/// transaction so that nothing committed in between is missed or seen twice.
public struct DaySnapshot: Hashable, Sendable {
    public let events: [UsageEvent]
    public let latestSequence: Int64
    public let eventCount: Int
    public let lastOccurredAt: Date?
}

extension LocalStore {
    public func snapshot(of interval: Range<Date>) throws(StoreError) -> DaySnapshot {
        try read { db in
            let events = try Self.events(in: interval, db)
            let row = try Row.fetchOne(
                db, sql: "SELECT max(seq) AS seq, count(*) AS n, max(occurred_at) AS last FROM usage_event")
            // Pruned events still count, and the newest of them may be the last activity.
            let pruned = try PruneState.read(db)
            let stored: Int64? = row?["last"]
            let last = [stored, pruned?.lastOccurredAt].compactMap { $0 }.max()
            return DaySnapshot(
                events: events, latestSequence: row?["seq"] ?? 0, eventCount: (row?["n"] ?? 0) + (pruned?.events ?? 0),
                lastOccurredAt: last.map { Self.date(milliseconds: $0) })
        }
    }
}
