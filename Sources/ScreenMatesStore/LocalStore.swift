import Foundation
import GRDB
import ScreenMatesCore

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
    let pool: DatabasePool

    /// How long a write waits for another process's write before giving up.
    public static let busyTimeout: TimeInterval = 10

    private init(path: String, pool: DatabasePool) {
        self.path = path
        self.pool = pool
    }

    /// Opens (creating if needed) the store at `path`. The file and its WAL companions are
    /// readable by the owner only. A damaged file fails with `.damaged` and is left untouched.
    public static func open(at path: String, busyTimeout: TimeInterval = LocalStore.busyTimeout) throws(StoreError)
        -> LocalStore
    {
        try FileLock.withLock(path: path + ".lock") { () throws(StoreError) -> LocalStore in
            try openLocked(at: path, busyTimeout: busyTimeout)
        }
    }

    private static func openLocked(at path: String, busyTimeout: TimeInterval) throws(StoreError) -> LocalStore {
        try createOwnerOnlyFile(at: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "ScreenMates.local"
        configuration.prepareDatabase { db in
            // Committed means durable: an acknowledged event survives a crash or power loss.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            let store = LocalStore(path: path, pool: pool)
            try store.checkReadable()
            try LocalSchema.migrate(pool, path: path)
            for suffix in ["-wal", "-shm"] { chmod(path + suffix, 0o600) }
            return store
        } catch {
            throw StoreError.from(error, path: path)
        }
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

    /// Reads the schema once, which is where a file that is not a database, or a damaged first
    /// page, shows itself.
    private func checkReadable() throws {
        try pool.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
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
