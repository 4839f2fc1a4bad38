import Foundation
import GRDB
import ScreenMatesCore

extension LocalStore {
    /// Records the notices a scheduler decided, in one transaction, and returns those of
    /// `deliver` that this call recorded first — the ones to show. A notice already recorded
    /// (by another dashboard, or before a restart) is not returned, so each is shown once.
    /// `toasted` says whether the caller puts the notices on screen itself; when it does not (the
    /// command line), the first dashboard to `takeUntoasted` shows them.
    public func claim(deliver: [Notice], countAsSent: [Notice], at instant: Date, toasted: Bool = true)
        throws(StoreError) -> [Notice]
    {
        guard !deliver.isEmpty || !countAsSent.isEmpty else { return [] }
        return try write { db in
            var claimed: [Notice] = []
            for (notice, shown) in deliver.map({ ($0, true) }) + countAsSent.map({ ($0, false) }) {
                let json = String(decoding: try JSONEncoder().encode(notice), as: UTF8.self)
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO notice (key, day, at, shown, toasted, notice) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        notice.key, notice.day.dayNumber, Self.milliseconds(instant),
                        shown, shown && toasted, json,
                    ])
                if shown && db.changesCount > 0 { claimed.append(notice) }
            }
            return claimed
        }
    }

    /// The keys of the notices recorded for `day`, and how many of them were shown.
    public func noticeKeys(day: LocalDate) throws(StoreError) -> (keys: Set<String>, shown: Int) {
        let state = try noticeState(day: day, untoastedSince: nil)
        return (state.keys, state.shown)
    }

    /// In one read, what a dashboard asks on every wake: the keys of the notices recorded for
    /// `day`, how many of them were shown, and how many shown since `untoastedSince` no
    /// dashboard has put on screen yet (worth a `takeUntoasted` only when there are some).
    public func noticeState(day: LocalDate, untoastedSince: Date?) throws(StoreError) -> (
        keys: Set<String>, shown: Int, untoasted: Int
    ) {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, shown FROM notice WHERE day = ?", arguments: [day.dayNumber])
            var keys: Set<String> = []
            var shown = 0
            for row in rows {
                guard let key = row["key"] as String? else { continue }
                keys.insert(key)
                if (row["shown"] as Int?) == 1, !Notice.isOutsideBudget(key: key) { shown += 1 }
            }
            let untoasted = try untoastedSince.map { since in
                try Self.untoastedCount(db, since: Self.milliseconds(since))
            }
            return (keys, shown, untoasted ?? 0)
        }
    }

    static func untoastedCount(_ db: Database, since: Int64) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT count(*) FROM notice WHERE shown = 1 AND toasted = 0 AND at >= ?", arguments: [since])
            ?? 0
    }

    /// A stored notice read back; nil for a row that cannot be read.
    static func record(_ row: Row) -> NoticeRecord? {
        guard let at = row["at"] as Int64?, let json = row["notice"] as String?,
            let notice = try? JSONDecoder().decode(Notice.self, from: Data(json.utf8))
        else { return nil }
        return NoticeRecord(notice: notice, at: Date(timeIntervalSince1970: Double(at) / 1000), shown: true)
    }

    /// The newest shown notices first, at most `limit`. A row that cannot be read is skipped.
    public func shownNotices(limit: Int = 200) throws(StoreError) -> [NoticeRecord] {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT at, notice FROM notice WHERE shown = 1 ORDER BY at DESC, key DESC LIMIT ?",
                arguments: [limit])
            return rows.compactMap(Self.record)
        }
    }

    /// Shown notices recorded since `instant` that no dashboard has put on screen yet, marked as
    /// taken by this call: each goes to one dashboard only.
    public func takeUntoasted(since instant: Date) throws(StoreError) -> [NoticeRecord] {
        let since = Self.milliseconds(instant)
        // Read first: a write would wake every dashboard watching the database.
        let waiting = try read { db in try Self.untoastedCount(db, since: since) }
        guard waiting > 0 else { return [] }
        return try write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, at, notice FROM notice WHERE shown = 1 AND toasted = 0 AND at >= ? ORDER BY at",
                arguments: [since])
            var taken: [NoticeRecord] = []
            for row in rows {
                guard let key = row["key"] as String?, let record = Self.record(row) else { continue }
                try db.execute(sql: "UPDATE notice SET toasted = 1 WHERE key = ? AND toasted = 0", arguments: [key])
                if db.changesCount > 0 { taken.append(record) }
            }
            return taken
        }
    }
}
