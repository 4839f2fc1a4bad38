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
                        notice.key, notice.day.dayNumber, Int64((instant.timeIntervalSince1970 * 1000).rounded()),
                        shown, shown && toasted, json,
                    ])
                if shown && db.changesCount > 0 { claimed.append(notice) }
            }
            return claimed
        }
    }

    /// The keys of the notices recorded for `day`, and how many of them were shown.
    public func noticeKeys(day: LocalDate) throws(StoreError) -> (keys: Set<String>, shown: Int) {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, shown FROM notice WHERE day = ?", arguments: [day.dayNumber])
            var keys: Set<String> = []
            var shown = 0
            for row in rows {
                guard let key = row["key"] as String? else { continue }
                keys.insert(key)
                if (row["shown"] as Int?) == 1 { shown += 1 }
            }
            return (keys, shown)
        }
    }

    /// The newest shown notices first, at most `limit`. A row that cannot be read is skipped.
    public func shownNotices(limit: Int = 200) throws(StoreError) -> [NoticeRecord] {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT at, notice FROM notice WHERE shown = 1 ORDER BY at DESC, key DESC LIMIT ?",
                arguments: [limit])
            return rows.compactMap { row -> NoticeRecord? in
                guard let at = row["at"] as Int64?, let json = row["notice"] as String?,
                    let notice = try? JSONDecoder().decode(Notice.self, from: Data(json.utf8))
                else { return nil }
                return NoticeRecord(notice: notice, at: Date(timeIntervalSince1970: Double(at) / 1000), shown: true)
            }
        }
    }

    /// Shown notices recorded since `instant` that no dashboard has put on screen yet, marked as
    /// taken by this call: each goes to one dashboard only.
    public func takeUntoasted(since instant: Date) throws(StoreError) -> [NoticeRecord] {
        let since = Int64((instant.timeIntervalSince1970 * 1000).rounded())
        // Read first: a dashboard asks on every wake, and a write would wake it again.
        let waiting = try read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM notice WHERE shown = 1 AND toasted = 0 AND at >= ?", arguments: [since])
                ?? 0
        }
        guard waiting > 0 else { return [] }
        return try write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, at, notice FROM notice WHERE shown = 1 AND toasted = 0 AND at >= ? ORDER BY at",
                arguments: [since])
            var taken: [NoticeRecord] = []
            for row in rows {
                guard let key = row["key"] as String?, let at = row["at"] as Int64?,
                    let json = row["notice"] as String?,
                    let notice = try? JSONDecoder().decode(Notice.self, from: Data(json.utf8))
                else { continue }
                try db.execute(sql: "UPDATE notice SET toasted = 1 WHERE key = ? AND toasted = 0", arguments: [key])
                if db.changesCount > 0 {
                    taken.append(
                        NoticeRecord(notice: notice, at: Date(timeIntervalSince1970: Double(at) / 1000), shown: true))
                }
            }
            return taken
        }
    }
}
