import GRDB
import GRDBSQLite
import ScreenMatesCore
import Testing

@testable import ScreenMatesStore

/// What the idle dashboard hands back once start-up is over: the prepared statements SQLite
/// keeps, with nothing lost.
@Suite struct LocalStoreMemoryTests {
    /// Bytes the writer's prepared statements hold (SQLite's own count for one connection).
    private static func writerStatementBytes(_ store: LocalStore) -> Int32 {
        store.pool.writeWithoutTransaction { db in
            var current: Int32 = 0
            var highest: Int32 = 0
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_STMT_USED, &current, &highest, 0)
            return current
        }
    }

    @Test func releasingMemoryDropsThePreparedStatementsAndLosesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        try store.record([
            Fixtures.event(.vice, at: "2026-11-21T10:00"), Fixtures.event(.productive, at: "2026-11-21T10:15"),
        ])
        let before = Self.writerStatementBytes(store)
        #expect(before > 0, "recording prepared statements on the writer")
        let day = Fixtures.instant("2026-11-21T00:00")..<Fixtures.instant("2026-11-22T00:00")
        let events = try store.events(in: day)

        store.releaseMemory()
        #expect(Self.writerStatementBytes(store) < before)
        #expect(try store.events(in: day) == events)
        #expect(try store.record([Fixtures.event(.vice, at: "2026-11-21T10:30")]) == 1)
        #expect(try store.eventCount() == 3)
    }
}
