import Foundation
import GRDB
import GRDBSQLite
import ScreenMatesCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The local database in the home directory: usage events (append-only, keyed by id), the
/// user's settings, the daily history and small pieces of shared state.
///
/// Several processes (the dashboard, monitors, `status`) open it at once: it is a WAL-mode
/// `DatabasePool` with a busy timeout, created and migrated under a file lock, and every
/// figure is derived from the events, so nothing is ever read and then cleared.
public final class LocalStore: Sendable {
    /// The database file.
    public let path: String
    private let busyTimeout: TimeInterval
    /// The connections, and whether SQLite opened them read-only; replaced by `reopen()`.
    private let connections: Mutex<Connections>
    /// Held while the store is open; tells other processes it is in use.
    private let lock: StoreLock

    /// How long a write waits for another process's write before giving up.
    public static let busyTimeout: TimeInterval = 10

    /// True when no other process had the store open when this one opened it.
    public var openedAlone: Bool { lock.wasAlone }

    private struct Connections: Sendable {
        var pool: DatabasePool
        /// The file (or its file system) could not be written when the pool was opened.
        var readOnly: Bool
    }

    var pool: DatabasePool { connections.withLock { $0.pool } }

    /// Frees what SQLite keeps to be quick next time (prepared statements, cached pages) on
    /// the writer and on a reader, on the caller's thread (the pool's own `releaseMemory`
    /// would start threads to reach every reader at once).
    public func releaseMemory() {
        pool.writeWithoutTransaction { $0.releaseMemory() }
        try? pool.unsafeReentrantRead { $0.releaseMemory() }
    }

    private init(path: String, busyTimeout: TimeInterval, connections: Connections, lock: StoreLock) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.connections = Mutex(connections)
        self.lock = lock
    }

    /// Opens (creating if needed) the store at `path`. The file and its WAL companions are
    /// readable by the owner only.
    ///
    /// A damaged database — not a database at all, pages that fail SQLite's integrity check,
    /// changes a crash left in a write-ahead log that has since gone — fails with `.damaged`
    /// and is left exactly as it is. The checks run when no other process has the store open;
    /// while one has, it is in use and sound.
    public static func open(at path: String, busyTimeout: TimeInterval = LocalStore.busyTimeout) throws(StoreError)
        -> LocalStore
    {
        let lock = try StoreLock.acquire(forStoreAt: path)
        defer { lock.share() }
        if lock.wasAlone {
            try WriteAheadLogCheck.check(databaseAt: path)
            try createOwnerOnlyFile(at: path)
        }
        do {
            let connections = try openConnections(path: path, busyTimeout: busyTimeout)
            let store = LocalStore(path: path, busyTimeout: busyTimeout, connections: connections, lock: lock)
            try store.checkReadable(thoroughly: lock.wasAlone)
            try LocalSchema.migrate(connections.pool, path: path)
            try store.makeCommitsDurable()
            for suffix in ["-wal", "-shm"] { chmod(path + suffix, 0o600) }
            return store
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    private static func openConnections(path: String, busyTimeout: TimeInterval) throws -> Connections {
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration(busyTimeout: busyTimeout, readonly: false))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            // A file we may not write is still worth reading: status and the dashboard show
            // it, and a monitor retries its writes until the permissions are fixed.
            pool = try DatabasePool(path: path, configuration: configuration(busyTimeout: busyTimeout, readonly: true))
        }
        // SQLite opens a file it may not write read-only without saying so.
        let readOnly =
            pool.configuration.readonly
            || pool.writeWithoutTransaction { db in sqlite3_db_readonly(db.sqliteConnection, "main") == 1 }
        return Connections(pool: pool, readOnly: readOnly)
    }

    /// Whether the store was opened while the file or its file system could not be written:
    /// then it stays read-only, even once they can be written, until `reopen()`.
    public var isReadOnly: Bool { connections.withLock { $0.readOnly } }

    /// Closes the connections and opens them again: a store opened while the file or its
    /// directory could not be written stays read-only otherwise, since SQLite keeps the
    /// `-shm` file of a process's connections mapped read-only until they are all closed.
    /// Reads in progress finish first; the store must be this process's only one for the file.
    public func reopen() throws(StoreError) {
        do {
            try connections.withLock { current in
                try current.pool.close()
                current = try Self.openConnections(path: path, busyTimeout: busyTimeout)
                try LocalSchema.migrate(current.pool, path: path)
            }
            try makeCommitsDurable()
            for suffix in ["-wal", "-shm"] { chmod(path + suffix, 0o600) }
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    private static func configuration(busyTimeout: TimeInterval, readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = readonly
        configuration.label = "ScreenMates.local"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            guard !db.configuration.readonly else { return }
            // Keep the -wal and -shm files when the last connection closes, so a process that
            // may only read (a read-only file) can still open the database; but empty the log
            // once its changes are in the database, so it never holds stale copies of pages.
            try db.execute(sql: "PRAGMA journal_size_limit = 0")
            var persist: Int32 = 1
            let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        return configuration
    }

    /// Committed means durable: an acknowledged event survives a crash and a power loss. (The
    /// pool sets `synchronous = NORMAL` on its writer when it turns WAL on; put FULL back.)
    private func makeCommitsDurable() throws {
        guard !pool.configuration.readonly else { return }
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    }

    /// Runs a read, mapping failures to `StoreError`.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// Runs a write transaction (IMMEDIATE, so writers queue on the busy timeout instead of
    /// failing), mapping failures to `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// Reads the schema, which is where a file that is not a database shows itself, and, when
    /// `thoroughly`, runs SQLite's quick integrity check over every page.
    private func checkReadable(thoroughly: Bool) throws {
        try pool.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            guard thoroughly else { return }
            let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
            if problems != ["ok"] {
                throw StoreError.damaged(path: path, detail: problems.joined(separator: "; "))
            }
        }
    }

    /// Creates the database file with mode 0600 before SQLite does, so it and the WAL files
    /// SQLite derives from it are never readable by others; tightens an existing file's mode.
    private static func createOwnerOnlyFile(at path: String) throws(StoreError) {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            let detail = String(cString: strerror(code))
            if code == EACCES || code == EROFS || code == EPERM {
                // A read-only file is still readable; SQLite reports what it can do with it.
                if access(path, R_OK) == 0 { return }
                throw .notWritable(path: path, detail: detail)
            }
            throw .cannotOpen(path: path, detail: detail)
        }
        fchmod(fd, 0o600)
        close(fd)
    }
}
