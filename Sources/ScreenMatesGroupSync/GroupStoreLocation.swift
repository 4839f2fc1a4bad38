import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesPostgresGroupStore
import ScreenMatesSQLiteGroupStore
import Synchronization

/// Where the group store is: a SQLite file shared on this host, or a PostgreSQL server.
///
/// `--group-store`, else `SCREENMATES_GROUP_STORE`, else the store the user's group was joined
/// through (remembered with the membership), else `group-store.sqlite` in the home directory. Several people on one host share a group by pointing at one file; people on
/// several machines by pointing at one server (`postgres://user@host:port/database`, or
/// `postgres://user@/database?host=/socket/directory` for a server's Unix socket).
///
/// Everything it needs is decided by `resolve`, from what it is given: how long to wait for a
/// file another process has locked (`SCREENMATES_GROUP_BUSY_TIMEOUT`, in the environment it
/// is handed), and, for a server, the one connection pool and listener that everything opening
/// this location shares (a reopened store after an outage included; the pool reconnects by
/// itself). Nothing is kept for the process beside it.
public enum GroupStoreLocation: Hashable, Sendable, CustomStringConvertible {
    case sqlite(path: String, busyTimeout: TimeInterval = SQLiteGroupStore.defaultBusyTimeout)
    case postgres(PostgresServer)

    /// A PostgreSQL group store at `url`: the store is made at the first `open` and shared by
    /// every copy of the location from then on.
    public final class PostgresServer: Hashable, Sendable {
        public let url: String
        private let address: PostgresAddress
        /// Who the store acts as: the home's member (`MemberIdentityFile`).
        private let keyring: MemberKeyring
        private let store = Mutex<PostgresGroupStore?>(nil)

        init(url: String, address: PostgresAddress, keyring: MemberKeyring) {
            self.url = url
            self.address = address
            self.keyring = keyring
        }

        /// Why the password file was not read (group or world access…), when it would have been.
        public var passwordFileWarning: String? { address.passwordFileWarning }

        /// The store, made at the first open and shared by every opener until the last of them
        /// has closed it (then the next open makes it again).
        var opened: PostgresGroupStore {
            store.withLock { store in
                if let store, store.share() { return store }
                let made = PostgresGroupStore(address: address, keyring: keyring)
                store = made
                return made
            }
        }

        public static func == (lhs: PostgresServer, rhs: PostgresServer) -> Bool { lhs.url == rhs.url }
        public func hash(into hasher: inout Hasher) { hasher.combine(url) }
    }

    /// A PostgreSQL location from its URL, acting as the members of `keyring` (a home's own: its
    /// `MemberIdentityFile`); a URL that cannot be read is refused.
    public static func postgres(url: String, environment: [String: String] = [:], keyring: MemberKeyring)
        throws(AppError) -> GroupStoreLocation
    {
        do {
            let address = try PostgresAddress(url: url, environment: environment)
            return .postgres(PostgresServer(url: url, address: address, keyring: keyring))
        } catch {
            throw .usage(error.message)
        }
    }

    /// `named` false skips the option and `SCREENMATES_GROUP_STORE`: the remembered store, or
    /// the default file (the environment still gives the rest). A remembered URL never gives a
    /// password: whatever it holds in its place (homes of earlier versions kept `…` there) is
    /// dropped, so the password comes from `PGPASSWORD` or `~/.pgpass`.
    public static func resolve(
        option: String?, environment: [String: String], home: HomeDirectory, remembered: String? = nil,
        named: Bool = true
    ) throws(AppError) -> GroupStoreLocation {
        let busyTimeout = min(
            max(
                environment["SCREENMATES_GROUP_BUSY_TIMEOUT"].flatMap(Double.init)
                    ?? SQLiteGroupStore.defaultBusyTimeout, 0.01), 600)
        let namedText = named ? option ?? environment["SCREENMATES_GROUP_STORE"].flatMap { $0.isEmpty ? nil : $0 } : nil
        let text = namedText ?? remembered.flatMap { $0.isEmpty ? nil : Self.withoutAnyPassword($0) }
        guard let text else { return .sqlite(path: home.path + "/group-store.sqlite", busyTimeout: busyTimeout) }
        guard !text.isEmpty else { throw .usage("--group-store needs a file path or a postgres:// URL.") }
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            return try .postgres(url: text, environment: environment, keyring: MemberIdentityFile(home: home).keyring)
        }
        if lower.contains("://") {
            throw .usage("The group store \"\(text)\" is neither a file path nor a postgres:// URL.")
        }
        let expanded = (text as NSString).expandingTildeInPath
        return .sqlite(
            path: expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded,
            busyTimeout: busyTimeout)
    }

    /// Opens the store, which the caller closes (`GroupStore.close`) when done with it. Only
    /// creating a group makes a new store file; otherwise a missing file is a store that cannot
    /// be reached (a shared disk not mounted, a path mistyped).
    public func open(creating: Bool = false) async throws(GroupStoreError) -> any GroupStore {
        switch self {
        case .sqlite(let path, let busyTimeout):
            if !creating && !FileManager.default.fileExists(atPath: path) {
                throw .unavailable(location: path, detail: "there is no group store file there")
            }
            return try await SQLiteGroupStore.open(at: path, busyTimeout: busyTimeout)
        case .postgres(let server):
            return server.opened
        }
    }

    /// Creates or migrates the store's schema now: a SQLite file is created if missing, a
    /// PostgreSQL database gets its tables and functions (its owner's role must do this once
    /// when members connect as roles that own nothing). A store out of reach fails with exit
    /// status 1, one that refuses (a role that may not create tables…) with 70.
    public func prepare() async throws(AppError) {
        do throws(GroupStoreError) {
            try await using(creating: true) { store throws(GroupStoreError) in
                if let server = store as? PostgresGroupStore { try await server.prepare() }
            }
        } catch {
            throw AppError(error.message, exitStatus: error.isTransient ? 1 : 70)
        }
    }

    /// How a dashboard following the group `code` through this store learns of its changes,
    /// found out as the store finds it out: at its first change signal (behind a connection
    /// pooler a PostgreSQL store takes a few seconds to find that notifications do not come
    /// back). Nil when the store does not signal within `limit`.
    public func following(code: GroupCode, limit: Duration = .seconds(8)) async -> ChangeFollowing? {
        try? await using { store throws(GroupStoreError) in
            let changes = store.changes(code: code)
            let signalled = await withTaskGroup(of: Bool.self) { race in
                race.addTask {
                    for await _ in changes { return true }
                    return false
                }
                race.addTask {
                    try? await Task.sleep(for: limit)
                    return false
                }
                let first = await race.next() ?? false
                race.cancelAll()
                return first
            }
            return signalled ? store.following : nil
        }
    }

    /// Opens the store, runs `body` with it and closes it, however `body` ends.
    public func using<T>(creating: Bool = false, _ body: (any GroupStore) async throws(GroupStoreError) -> T)
        async throws(GroupStoreError) -> T
    {
        let store = try await open(creating: creating)
        return try await store.closing { () throws(GroupStoreError) in try await body(store) }
    }

    /// The claims of user ids from before identities waiting for this store's owner (a
    /// PostgreSQL store only; the caller must connect as its owner).
    public func pendingClaims() async throws(AppError) -> [IdentityClaim] {
        try await asOwner { store throws(GroupStoreError) in try await store.pendingClaims() }
    }

    /// Binds `userID` to the claim `role` made (the one with `fingerprint`, when given).
    public func approveClaim(userID: UserID, role: String, fingerprint: String?) async throws(AppError)
        -> ClaimApproval
    {
        try await asOwner { store throws(GroupStoreError) in
            try await store.approveClaim(userID: userID, role: role, fingerprint: fingerprint)
        }
    }

    private func asOwner<T>(_ body: (PostgresGroupStore) async throws(GroupStoreError) -> T) async throws(AppError)
        -> T
    {
        guard case .postgres(let server) = self else {
            throw .usage(
                "Claims are a PostgreSQL store's: a shared file trusts everyone who can write it, so it has none.")
        }
        let store = server.opened
        do {
            return try await store.closing { () throws(GroupStoreError) in try await body(store) }
        } catch {
            throw AppError(error.message)
        }
    }

    /// What a home remembers with its membership: the path, or the URL with no password (nor
    /// a stand-in for one).
    public var remembered: String {
        switch self {
        case .sqlite(let path, _): path
        case .postgres(let server): Self.withoutAnyPassword(server.url)
        }
    }

    /// For messages: the path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path, _): path
        case .postgres(let server): Self.withoutPassword(server.url)
        }
    }

    static func withoutPassword(_ url: String) -> String {
        PostgresAddress.withoutPassword(url)
    }

    /// A postgres:// URL with no password at all; anything else as it is.
    static func withoutAnyPassword(_ text: String) -> String {
        let lower = text.lowercased()
        guard lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") else { return text }
        return PostgresAddress.forgettingPassword(text)
    }
}
