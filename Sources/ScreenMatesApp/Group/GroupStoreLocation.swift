import Foundation
import ScreenMatesGroupStore
import ScreenMatesPostgresGroupStore
import ScreenMatesSQLiteGroupStore
import Synchronization

/// Where the group store is: a SQLite file shared on this host, or a PostgreSQL server.
///
/// `--group-store`, else `SCREENMATES_GROUP_STORE`, else the store the user's group was joined
/// through (remembered with the membership), else `group-store.sqlite` in the home directory. Several people on one host share a group by pointing at one file; people on
/// several machines by pointing at one server (`postgres://user@host:port/database`, or
/// `postgres://user@/database?host=/socket/directory` for a server's Unix socket).
public enum GroupStoreLocation: Hashable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    public static func resolve(
        option: String?, environment: [String: String], home: HomeDirectory, remembered: String? = nil
    ) throws(AppError) -> GroupStoreLocation {
        let text =
            option ?? environment["SCREENMATES_GROUP_STORE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? remembered.flatMap { $0.isEmpty ? nil : $0 }
        guard let text else { return .sqlite(path: home.path + "/group-store.sqlite") }
        guard !text.isEmpty else { throw .usage("--group-store needs a file path or a postgres:// URL.") }
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            do {
                _ = try PostgresAddress(url: text, environment: environment)
            } catch {
                throw .usage(error.message)
            }
            return .postgres(url: text)
        }
        if lower.contains("://") {
            throw .usage("The group store \"\(text)\" is neither a file path nor a postgres:// URL.")
        }
        let expanded = (text as NSString).expandingTildeInPath
        return .sqlite(
            path: expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded)
    }

    /// Opens the store. Only creating a group makes a new store file; otherwise a missing file
    /// is a store that cannot be reached (a shared disk not mounted, a path mistyped).
    public func open(creating: Bool = false) throws(GroupStoreError) -> any GroupStore {
        switch self {
        case .sqlite(let path):
            if !creating && !FileManager.default.fileExists(atPath: path) {
                throw .unavailable(location: path, detail: "there is no group store file there")
            }
            let timeout = ProcessInfo.processInfo.environment["SCREENMATES_GROUP_BUSY_TIMEOUT"].flatMap(Double.init)
            return try SQLiteGroupStore.open(at: path, busyTimeout: min(max(timeout ?? 5, 0.01), 600))
        case .postgres(let url):
            let address: PostgresAddress
            do {
                address = try PostgresAddress(url: url)
            } catch {
                throw .unusable(location: description, detail: error.message)
            }
            return Self.postgresStores.withLock { stores in
                if let store = stores[url] { return store }
                let store = PostgresGroupStore(address: address)
                stores[url] = store
                return store
            }
        }
    }

    /// Creates or migrates the store's schema now: a SQLite file is created if missing, a
    /// PostgreSQL database gets its tables and functions (its owner's role must do this once
    /// when members connect as roles that own nothing).
    public func prepare() async throws(GroupStoreError) {
        let store = try open(creating: true)
        if let server = store as? PostgresGroupStore { try await server.prepare() }
    }

    /// One store per server URL for the whole process: its connection pool and its listener
    /// are shared by everything that opens it (a reopened store after an outage included; the
    /// pool reconnects by itself).
    private static let postgresStores = Mutex<[String: PostgresGroupStore]>([:])

    /// For messages: the path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): Self.withoutPassword(url)
        }
    }

    static func withoutPassword(_ url: String) -> String {
        PostgresAddress.withoutPassword(url)
    }
}
