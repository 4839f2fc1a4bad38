import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows
import ScreenMatesWatch
import Synchronization

// Opening the shared file: its lock, creating it with the members' mode, its schema, and a pool
// that writes once another program lets the file go.
extension SQLiteGroupStore {
    /// Opens the store at `path`, creating the file (mode 0660) and its schema if needed.
    ///
    /// Fails with `.unusable` when the file is not a database, is damaged, holds another kind
    /// of database (which is left untouched), was written by a newer version, is a symbolic link
    /// (or one of its companions is), or carries a trigger or a view the store did not create; with
    /// `.unavailable` when its directory is missing, permissions forbid it, or another process
    /// keeps it locked beyond `busyTimeout` seconds. An up-to-date schema is not written to, so
    /// a file that may only be read still opens (and writes then fail as `.unavailable`).
    ///
    /// Opening waits for the file's lock and SQLite's, up to `busyTimeout`, on a thread of its
    /// own (`ThreadExecutor.blocking`), never on one of the few that run every task.
    public static func open(at path: String, busyTimeout: TimeInterval = defaultBusyTimeout)
        async throws(GroupStoreError) -> SQLiteGroupStore
    {
        try await ThreadExecutor.blocking(name: "group-store-open") { () throws(GroupStoreError) in
            try openBlocking(at: path, busyTimeout: busyTimeout)
        }
    }

    /// `open`, on the calling thread, which it may block for up to `busyTimeout`.
    @available(*, noasync, message: "blocks its thread: await open(at:busyTimeout:) instead")
    private static func openBlocking(at path: String, busyTimeout: TimeInterval) throws(GroupStoreError)
        -> SQLiteGroupStore
    {
        try SharedFileDefences.refuseSymbolicLinks(path)
        let lock = try GroupStoreFileLock.exclusive(forStoreAt: path, timeout: busyTimeout)
        defer { lock.release() }
        try createSharedFile(at: path)
        do {
            let needsMigration = try SQLiteGroupSchema.needsMigration(path: path, busyTimeout: busyTimeout)
            let pool: DatabasePool
            var opensForWriting = false
            do {
                pool = try writingPool(at: path, busyTimeout: busyTimeout, migrating: needsMigration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
                pool = try DatabasePool(
                    path: path, configuration: configuration(busyTimeout: busyTimeout, readonly: true))
                if needsMigration { try SQLiteGroupSchema.migrate(pool, location: path) }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && !needsMigration {
                // Opening a pool for writing writes to an empty WAL once (GRDB makes sure it is
                // not empty), which waits for the write lock; readers wait for no writer. A file
                // another program holds is read now and written once it lets go.
                pool = try DatabasePool(
                    path: path, configuration: configuration(busyTimeout: busyTimeout, readonly: true))
                opensForWriting = true
            }
            // Once more now that SQLite has opened the file and its companions.
            try SharedFileDefences.refuseSymbolicLinks(path)
            return SQLiteGroupStore(
                path: path, pool: pool, opensForWriting: opensForWriting, busyTimeout: busyTimeout)
        } catch {
            throw .sqlite(error, location: path)
        }
    }

    /// A pool that writes: the schema migrated when `migrating`, durable commits, and the
    /// change stamps in place.
    private static func writingPool(at path: String, busyTimeout: TimeInterval, migrating: Bool) throws
        -> DatabasePool
    {
        let pool = try DatabasePool(
            path: path, configuration: configuration(busyTimeout: busyTimeout, readonly: false))
        if migrating { try SQLiteGroupSchema.migrate(pool, location: path) }
        // Committed means durable: a day marked synced must not vanish in a power cut.
        // (The pool sets `synchronous = NORMAL` on its writer when it turns WAL on.)
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try SQLiteChangeStamps.install(db)
        }
        return pool
    }

    /// The pool writes go through: the one opened, or, when that one could only read (`open`),
    /// a writing one opened now, which fails as busy while the other program holds the lock.
    func writingPool() async throws -> DatabasePool {
        let (current, opensForWriting) = pools.withLock { $0 }
        guard opensForWriting else { return current }
        // Opening waits for the lock up to the busy timeout: on a thread of its own, not one of
        // the few that run every task.
        let (path, busyTimeout) = (self.path, self.busyTimeout)
        let writing = try await ThreadExecutor.blocking(name: "group-store-open") { () throws -> DatabasePool in
            let pool = try Self.writingPool(at: path, busyTimeout: busyTimeout, migrating: false)
            try SharedFileDefences.refuseSymbolicLinks(path)
            return pool
        }
        // Another write may have opened one meanwhile: the first kept is used by all.
        return pools.withLock { pools in
            if pools.opensForWriting { pools = (writing, false) }
            return pools.pool
        }
    }

    private static func configuration(busyTimeout: TimeInterval, readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = readonly
        configuration.label = "ScreenMates.groups"
        SharedFileDefences.configure(&configuration)
        return configuration
    }

    /// Creates the file with mode 0660 before SQLite does (SQLite gives the `-wal` and `-shm`
    /// files it derives from it the same mode). An existing file is left as its owner made it.
    private static func createSharedFile(at path: String) throws(GroupStoreError) {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o660)
        if fd >= 0 {
            fchmod(fd, 0o660)  // The umask may have taken the group's bits.
            Glibc.close(fd)
            return
        }
        let code = errno
        if code == EEXIST || access(path, F_OK) == 0 { return }  // SQLite says what it can do with it.
        throw .unavailable(location: path, detail: String(cString: strerror(code)))
    }
}
