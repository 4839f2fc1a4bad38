import GRDB
import ScreenMatesGroupStore

// The store's transactions: every one first makes sure the file holds no trigger or view the
// store did not create (`ForeignSchemaObjects`), and maps what fails to a `GroupStoreError`.
extension SQLiteGroupStore {
    /// One read transaction, in a file without foreign triggers or views.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(GroupStoreError) -> T {
        let location = path
        do {
            return try await pool.read { db in
                try ForeignSchemaObjects.refuse(db, location: location)
                return try body(db)
            }
        } catch {
            throw .sqlite(error, location: path)
        }
    }

    /// One immediate transaction: it waits (up to the busy timeout) for other writers before it
    /// reads anything, so what it reads stays true until it commits. It first makes sure the
    /// file holds no trigger the store did not create, which would run inside it.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(GroupStoreError) -> T {
        let location = path
        do {
            return try await (try await writingPool()).write { db in
                try ForeignSchemaObjects.refuse(db, location: location)
                return try body(db)
            }
        } catch {
            throw .sqlite(error, location: path)
        }
    }

    /// `read` for rows that are checked on the way in: `body` keeps them through the filter, and
    /// the rows it left out are reported to the reading task once the read is over.
    func read<T: Sendable>(filtering body: @Sendable (Database, inout GroupRowFilter) throws -> T)
        async throws(GroupStoreError) -> T
    {
        let (value, filter) = try await read { db in
            var filter = GroupRowFilter()
            let value = try body(db, &filter)
            return (value, filter)
        }
        filter.report()
        return value
    }

    /// `write` for a transaction that reads rows checked on the way in (the settlement).
    func write<T: Sendable>(filtering body: @Sendable (Database, inout GroupRowFilter) throws -> T)
        async throws(GroupStoreError) -> T
    {
        let (value, filter) = try await write { db in
            var filter = GroupRowFilter()
            let value = try body(db, &filter)
            return (value, filter)
        }
        filter.report()
        return value
    }
}
