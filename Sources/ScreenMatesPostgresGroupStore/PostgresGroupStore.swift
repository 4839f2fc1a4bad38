import Foundation
import Logging
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Synchronization

/// The group store on a PostgreSQL server, for members on different machines (each member's
/// `--group-store` is the same `postgres://` URL).
///
/// Every operation is one call of a server-side function (see `PostgresGroupSchema`), so it is
/// one transaction that checks and writes together — a version compare, a name check, a wrong
/// code written down — and every value goes to the server as a bound parameter. Opening makes
/// no connection: the first operation connects and creates or migrates the schema, so a server
/// that is down is an operation failing with `.unavailable`, which the app turns into "offline"
/// and retries. An operation with no answer within the address's timeout fails the same way.
///
/// Changes are signalled through LISTEN/NOTIFY on one dedicated connection (`PostgresChangeFeed`).
///
/// Every call proves who makes it: the user id it acts as and that member's secret
/// (`MemberSecret`, from the keyring), which the server checks against the login and the hash it
/// bound the id to. A call that names no member (reading a group) acts as the member this store
/// last saw join or create that group, else as the keyring's reader.
///
/// The pool's run and the listener's loop are tasks the store owns; `close` ends them and
/// waits for them. A store may be shared by several openers (`share`), each closing it once:
/// the last close ends it.
public final class PostgresGroupStore: GroupStore {
    public let address: PostgresAddress
    let keyring: MemberKeyring
    /// Who reads each group: the member this store saw create or join it.
    let readers = GroupReaders()
    let client: PostgresClient
    private let runner: Task<Void, Never>
    let feed: PostgresChangeFeed
    /// Queries given up on that still run until their connection closes.
    let overdue: OverdueQueries
    let schemaReady = Mutex(false)
    typealias ReadAhead = ChangesReadAhead<[PostgresRow]>
    /// What the look after each signal will ask, read ahead when following by asking.
    let readAhead = ReadAhead(freshness: PostgresChangeFeed.pollInterval * 5)
    /// Calls made to the server's functions (each one query), for the benchmark and tests.
    let calls = Atomic<Int>(0)
    /// How many openers hold the store; 0 once closed.
    private let holders = Mutex(1)
    private let logger: Logger

    /// What `pg_stat_activity` shows for the store's pooled connections.
    public static let applicationName = "screenmates"
    /// What it shows for the connection that listens for changes.
    public static let listenerApplicationName = PostgresChangeFeed.applicationName

    /// Makes a store for the server at `address` acting for the members of `keyring`; nothing is
    /// connected until it is used. `logger` gets the connections' background events (silent
    /// unless given).
    public init(
        address: PostgresAddress, keyring: MemberKeyring,
        logger: Logger = Logger(label: "ScreenMates.groups.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.address = address
        self.keyring = keyring
        self.logger = logger
        let client = PostgresClient(
            configuration: address.clientConfiguration(applicationName: Self.applicationName),
            backgroundLogger: logger)
        self.client = client
        runner = Task.detached { await client.run() }
        let overdue = OverdueQueries()
        self.overdue = overdue
        feed = PostgresChangeFeed(address: address, logger: logger, overdue: overdue) { [readers] code in
            guard let id = readers[code] ?? keyring.reader(), let secret = keyring.secret(id) else { return nil }
            return Caller(id: id.value, secret: secret.hex)
        }
        let timeout = address.timeout
        feed.use(
            PostgresChangeFeed.Pool(
                changeMark: { [weak self] code in
                    guard let self else { throw CancellationError() }
                    return try await self.followedMark(code: code)
                },
                notify: { channel, payload in
                    try await withDeadline(timeout, overdue: overdue) {
                        _ = try await client.rows("SELECT pg_notify(\(channel), \(payload))")
                    }
                }))
    }

    /// A store dropped without `close`: its tasks are cancelled and end by themselves, unawaited.
    deinit {
        feed.stop()
        runner.cancel()
    }

    /// One more opener holds the store, and will close it; false when it is closed already
    /// (then the opener needs a new store).
    public func share() -> Bool {
        holders.withLock { holders in
            guard holders > 0 else { return false }
            holders += 1
            return true
        }
    }

    /// Lets go of the store for one opener; the last one's close ends every stream, the
    /// listening connection and the pool, and returns once their tasks have ended — or after
    /// `closeLimit`, leaving what is still running to end by itself.
    public func close() async { await close(waitingAtMost: Self.closeLimit) }

    func close(waitingAtMost limit: Duration) async {
        let last = holders.withLock { holders -> Bool in
            guard holders > 0 else { return false }
            holders -= 1
            return holders == 0
        }
        guard last else { return }
        let (feed, runner, overdue) = (self.feed, self.runner, self.overdue)
        let ended = await endsWithin(limit) {
            await feed.shutdown()
            runner.cancel()
            await runner.value
            // Their connections are closed now, so they end.
            await overdue.waitForAll()
        }
        if !ended {
            logger.warning("group store: queries given up on had not ended \(limit) after it closed")
        }
    }

    /// How long `close` waits for the store's tasks. A query given up on (a migration past its
    /// deadline) was never ended by postgres-nio once its connection was closed under it:
    /// waiting for it held a closing store, and everything after it, for ever.
    static let closeLimit: Duration = .seconds(10)

    /// Connects and creates or migrates the schema if that has not been done yet. Operations
    /// do this themselves; calling it first only moves the wait.
    ///
    /// It uses a connection of its own rather than the pool, which would keep retrying a
    /// server that is not there: a missing or refusing server fails at once, saying why. After
    /// any operation finds the server out of reach this is done again, so the next call also
    /// fails fast until the server is back.
    ///
    /// Fails with `.unusable` when the database was set up by a newer version, or needs
    /// setting up and the role may not (its owner must connect once); `.unavailable` when the
    /// server cannot be reached.
    public func prepare() async throws(GroupStoreError) {
        if schemaReady.withLock({ $0 }) { return }
        let address = self.address
        let location = address.description
        do {
            let configuration = try address.connectionConfiguration(applicationName: Self.applicationName)
            let logger = self.logger
            // The configuration's connect timeout bounds this, the server's answer included (a
            // connection abandoned by a deadline of ours would never be closed).
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            do {
                // One answer, like any operation: a server shutting down may take the query
                // and never answer it.
                let current = try await withDeadline(address.timeout, overdue: overdue) {
                    try await PostgresSchemaMigrator.isCurrent(connection)
                }
                if !current {
                    // A first migration creates a few dozen objects, and a busy server may take
                    // a while: allow it far more than one answer's time.
                    try await withDeadline(max(address.timeout * 4, .seconds(60)), overdue: overdue) {
                        try await PostgresSchemaMigrator.migrate(
                            connection: connection, location: location, user: address.user)
                    }
                }
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            throw .postgres(
                error, location: location, context: OperationContext(), rootCertificate: address.rootCertificate)
        }
        schemaReady.withLock { $0 = true }
    }

    // MARK: - GroupStore

    public func createGroup(dailyGoalBlocks: Int, creator: MemberProfile, machine: MachineID?, now: Date)
        async throws(GroupStoreError) -> Group
    {
        try GroupStoreRules.check(dailyGoalBlocks: dailyGoalBlocks)
        try GroupStoreRules.check(creator)
        let at = try StoredInstant.milliseconds(now)
        let p = try ProfileParameters(creator)
        let me = try caller(creator.userID)
        let goal = Int64(dailyGoalBlocks)
        let rows = try await perform(OperationContext(name: creator.displayName, userID: creator.userID)) { client in
            try await client.writeRows(
                """
                SELECT code, created_at FROM screenmates.create_group_on(\(me.id), \(me.secret), \(Self.id(machine)),
                    \(goal), \(p.name), \(p.blocks), \(p.day), \(p.streak), \(p.lastActive), \(p.lastUpdated),
                    \(p.version), \(at))
                """
            )
        }
        let group = try decode("the new group") {
            guard let row = rows.first else { throw UnreadableValue(what: "no new group") }
            let (text, createdAt) = try row.decode((String, Int64).self)
            return Group(
                code: try Self.code(text), dailyGoalBlocks: dailyGoalBlocks, memberCount: 1,
                createdAt: StoredInstant.date(milliseconds: createdAt))
        }
        readers.note(creator.userID, in: group.code)
        return group
    }

    public func group(code: GroupCode, userID: UserID, now: Date) async throws(GroupStoreError) -> Group? {
        let at = try StoredInstant.milliseconds(now)
        let me = try caller(userID)
        let rows = try await perform(OperationContext(code: code, userID: userID)) { client in
            try await client.rows(
                """
                SELECT outcome, retry_after, daily_goal_blocks, member_count, created_at
                FROM screenmates.find_group(\(me.id), \(me.secret), \(code.value), \(at))
                """
            )
        }
        return try lookupOutcome(rows, code: code)
    }

    public func join(code: GroupCode, member: MemberProfile, machine: MachineID?, now: Date)
        async throws(GroupStoreError) -> Group
    {
        try GroupStoreRules.check(member)
        let at = try StoredInstant.milliseconds(now)
        let p = try ProfileParameters(member)
        let me = try caller(member.userID)
        let context = OperationContext(code: code, name: member.displayName, userID: member.userID)
        let rows = try await perform(context) { client in
            try await client.writeRows(
                """
                SELECT outcome, retry_after, daily_goal_blocks, member_count, created_at
                FROM screenmates.join_group_on(\(me.id), \(me.secret), \(Self.id(machine)), \(code.value), \(p.name),
                    \(p.blocks), \(p.day), \(p.streak), \(p.lastActive), \(p.lastUpdated), \(p.version), \(at))
                """
            )
        }
        guard let group = try lookupOutcome(rows, code: code) else { throw .unknownCode(code) }
        readers.note(member.userID, in: code)
        return group
    }

    public func leave(code: GroupCode, userID: UserID) async throws(GroupStoreError) {
        let me = try caller(userID)
        let rows = try await perform(OperationContext(code: code, userID: userID)) { client in
            try await client.writeRows("SELECT screenmates.leave_group(\(me.id), \(me.secret), \(code.value))")
        }
        guard try known(rows, "leaving") else { throw .unknownCode(code) }
        readers.forget(userID, in: code)
    }

    @discardableResult
    public func upsertProfile(_ profile: MemberProfile, machine: MachineID?) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(profile)
        let p = try ProfileParameters(profile)
        let me = try caller(profile.userID)
        let rows = try await perform(OperationContext(name: profile.displayName, userID: profile.userID)) { client in
            try await client.writeRows(
                """
                SELECT screenmates.upsert_machine_profile(\(me.id), \(me.secret), \(Self.id(machine)), \(p.name),
                    \(p.blocks), \(p.day), \(p.streak), \(p.lastActive), \(p.lastUpdated), \(p.version),
                    \(profile.productiveToday.map(Int64.init)))
                """
            )
        }
        return try decode("whether the profile was stored") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to a profile update") }
            return try row.decode(Bool.self)
        }
    }

    public func members(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [MemberProfile] {
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, user_id, display_name, blocks_today, day, streak, last_active, last_updated, version
                FROM screenmates.group_members_after(\(me.id), \(me.secret), \(code.value), \(changedAfter))
                """
            )
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        // Every row is checked as it comes in: a bad one is left out and named, the rest shows.
        var filter = GroupRowFilter()
        let members = try decode("the members") {
            try rows.compactMap { row in
                let (_, userID, name, blocks, day, streak, lastActive, lastUpdated, version) = try row.decode(
                    (Bool, String, String, Int64, Int64, Int64, Int64?, Int64, Int64).self)
                return filter.keep(
                    StoredMember(
                        userID: userID, displayName: name, blocksToday: blocks, day: day, streak: streak,
                        lastActive: lastActive, lastUpdated: lastUpdated, version: version))
            }
        }
        filter.report()
        return members
    }

    /// The calls this store has made to the server's functions so far (each one query; the
    /// listener's own queries are not counted).
    public var serverCalls: Int { calls.load(ordering: .relaxed) }

    /// Live while the server's notifications reach this client, else asking every 2 s (see
    /// `PostgresChangeFeed`).
    public var following: ChangeFollowing { feed.following }

    /// What `find_group` and `join_group` answer in their `outcome` column.
    private enum LookupOutcome: String {
        /// The group, with its goal, member count and creation time.
        case found
        /// No group has the code (the attempt was written down).
        case unknown
        /// Too many wrong codes: the seconds to wait come with it.
        case limited
    }

    /// A lookup's outcome: the group, `nil` for a code that names none, or the rate limit.
    private func lookupOutcome(_ rows: [PostgresRow], code: GroupCode) throws(GroupStoreError) -> Group? {
        let (answer, retryAfter, goal, count, createdAt) = try decode("a group lookup") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to a lookup") }
            return try row.decode((String, Int64?, Int64?, Int64?, Int64?).self)
        }
        switch LookupOutcome(rawValue: answer) {
        case .found:
            guard let goal, let count, let createdAt else { break }
            do {
                return try StoredGroup(
                    code: code.value, dailyGoalBlocks: goal, memberCount: count, createdAt: createdAt
                )
                .checked()
            } catch {
                throw .unusable(location: address.description, detail: error.description)
            }
        case .unknown:
            return nil
        case .limited:
            guard let retryAfter else { break }
            throw .tooManyAttempts(retryAfterSeconds: Int(retryAfter))
        case nil:
            break
        }
        throw .unusable(location: address.description, detail: "a group lookup answered \"\(answer)\"")
    }

    // MARK: - Values

    /// A profile as the functions' parameters (the name's key is the server's to compute).
    private struct ProfileParameters: Sendable {
        let name: String
        let blocks: Int64
        let day: Int64
        let streak: Int64
        let lastActive: Int64?
        let lastUpdated: Int64
        let version: Int64

        init(_ profile: MemberProfile) throws(GroupStoreError) {
            name = profile.displayName.value
            blocks = Int64(profile.blocksToday)
            day = Int64(profile.day.dayNumber)
            streak = Int64(profile.streak)
            lastActive = try StoredInstant.milliseconds(ifAny: profile.lastActive)
            lastUpdated = try StoredInstant.milliseconds(profile.lastUpdated)
            version = profile.version
        }
    }

    static func code(_ text: String) throws -> GroupCode {
        guard let code = try? GroupCode(validating: text) else { throw UnreadableValue(what: "a malformed code") }
        return code
    }

    /// A user id read back; text that is not one is damage.
    static func userID(_ text: String) throws -> UserID {
        guard let id = try? UserID(validating: text) else { throw UnreadableValue(what: "a malformed user id") }
        return id
    }

    /// A day number read back as a date; one outside the years any engine keeps is damage.
    static func localDate(_ number: Int64) throws -> LocalDate {
        let range = GroupStoreRules.storableDates
        guard (Int64(range.lowerBound.dayNumber)...Int64(range.upperBound.dayNumber)).contains(number) else {
            throw UnreadableValue(what: "a date out of range")
        }
        return LocalDate(dayNumber: Int(number))
    }
}
