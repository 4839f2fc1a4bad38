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
public final class PostgresGroupStore: GroupStore {
    public let address: PostgresAddress
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let feed: PostgresChangeFeed
    private let schemaReady = Mutex(false)
    private let logger: Logger

    /// What `pg_stat_activity` shows for the store's pooled connections.
    public static let applicationName = "screenmates"
    /// What it shows for the connection that listens for changes.
    public static let listenerApplicationName = PostgresChangeFeed.applicationName

    /// Makes a store for the server at `address`; nothing is connected until it is used.
    /// `logger` gets the connections' background events (silent unless given).
    public init(
        address: PostgresAddress,
        logger: Logger = Logger(label: "ScreenMates.groups.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.address = address
        self.logger = logger
        let client = PostgresClient(
            configuration: address.clientConfiguration(applicationName: Self.applicationName),
            backgroundLogger: logger)
        self.client = client
        runner = Task.detached { await client.run() }
        feed = PostgresChangeFeed(address: address, logger: logger)
    }

    deinit {
        feed.stop()
        runner.cancel()
    }

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
                let current = try await withDeadline(address.timeout) {
                    try await PostgresSchemaMigrator.isCurrent(connection)
                }
                if !current {
                    // A first migration creates a few dozen objects, and a busy server may take
                    // a while: allow it far more than one answer's time.
                    try await withDeadline(max(address.timeout * 4, .seconds(60))) {
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
            throw .postgres(error, location: location, context: OperationContext())
        }
        schemaReady.withLock { $0 = true }
    }

    // MARK: - GroupStore

    public func createGroup(dailyGoalBlocks: Int, creator: MemberProfile, now: Date) async throws(GroupStoreError)
        -> Group
    {
        try GroupStoreRules.check(dailyGoalBlocks: dailyGoalBlocks)
        try GroupStoreRules.check(creator)
        let at = try Self.milliseconds(now)
        let p = try ProfileParameters(creator)
        let goal = Int64(dailyGoalBlocks)
        let rows = try await perform(OperationContext(name: creator.displayName, userID: creator.userID)) { client in
            try await client.query(
                """
                SELECT code, created_at FROM screenmates.create_group(\(goal), \(p.userID), \(p.name), \(p.nameKey),
                    \(p.blocks), \(p.day), \(p.streak), \(p.lastActive), \(p.lastUpdated), \(p.version), \(at))
                """
            ).collect()
        }
        return try decode("the new group") {
            guard let row = rows.first else { throw UnreadableValue(what: "no new group") }
            let (text, createdAt) = try row.decode((String, Int64).self)
            return Group(
                code: try Self.code(text), dailyGoalBlocks: dailyGoalBlocks, memberCount: 1,
                createdAt: Self.date(milliseconds: createdAt))
        }
    }

    public func group(code: GroupCode, userID: UserID, now: Date) async throws(GroupStoreError) -> Group? {
        let at = try Self.milliseconds(now)
        let rows = try await perform(OperationContext(code: code, userID: userID)) { client in
            try await client.query(
                """
                SELECT outcome, retry_after, daily_goal_blocks, member_count, created_at
                FROM screenmates.find_group(\(code.value), \(userID.value), \(at))
                """
            ).collect()
        }
        return try lookupOutcome(rows, code: code)
    }

    public func join(code: GroupCode, member: MemberProfile, now: Date) async throws(GroupStoreError) -> Group {
        try GroupStoreRules.check(member)
        let at = try Self.milliseconds(now)
        let p = try ProfileParameters(member)
        let context = OperationContext(code: code, name: member.displayName, userID: member.userID)
        let rows = try await perform(context) { client in
            try await client.query(
                """
                SELECT outcome, retry_after, daily_goal_blocks, member_count, created_at
                FROM screenmates.join_group(\(code.value), \(p.userID), \(p.name), \(p.nameKey), \(p.blocks),
                    \(p.day), \(p.streak), \(p.lastActive), \(p.lastUpdated), \(p.version), \(at))
                """
            ).collect()
        }
        guard let group = try lookupOutcome(rows, code: code) else { throw .unknownCode(code) }
        return group
    }

    public func leave(code: GroupCode, userID: UserID) async throws(GroupStoreError) {
        let rows = try await perform(OperationContext(code: code, userID: userID)) { client in
            try await client.query("SELECT screenmates.leave_group(\(code.value), \(userID.value))").collect()
        }
        guard try known(rows, "leaving") else { throw .unknownCode(code) }
    }

    @discardableResult
    public func upsertProfile(_ profile: MemberProfile) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(profile)
        let p = try ProfileParameters(profile)
        let rows = try await perform(OperationContext(name: profile.displayName, userID: profile.userID)) { client in
            try await client.query(
                """
                SELECT screenmates.upsert_profile(\(p.userID), \(p.name), \(p.nameKey), \(p.blocks), \(p.day),
                    \(p.streak), \(p.lastActive), \(p.lastUpdated), \(p.version))
                """
            ).collect()
        }
        return try decode("whether the profile was stored") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to a profile update") }
            return try row.decode(Bool.self)
        }
    }

    public func members(code: GroupCode) async throws(GroupStoreError) -> [MemberProfile] {
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.query(
                """
                SELECT known, user_id, display_name, blocks_today, day, streak, last_active, last_updated, version
                FROM screenmates.group_members(\(code.value))
                """
            ).collect()
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        return try decode("the members") {
            try rows.map { row in
                let (_, userID, name, blocks, day, streak, lastActive, lastUpdated, version) = try row.decode(
                    (Bool, String, String, Int64, Int64, Int64, Int64?, Int64, Int64).self)
                guard let displayName = try? DisplayName(validating: name) else {
                    throw UnreadableValue(what: "a member name that is not a display name")
                }
                return MemberProfile(
                    userID: try Self.userID(userID), displayName: displayName, blocksToday: Int(blocks),
                    day: try Self.localDate(day), streak: Int(streak),
                    lastActive: lastActive.map(Self.date(milliseconds:)),
                    lastUpdated: Self.date(milliseconds: lastUpdated), version: version)
            }
        }
    }

    public func upsertDayTotals(_ totals: [DayTotal], code: GroupCode) async throws(GroupStoreError) {
        for total in totals { try GroupStoreRules.check(total) }
        guard !totals.isEmpty else { return }
        let users = totals.map(\.userID.value)
        let dates = totals.map { Int64($0.date.dayNumber) }
        let vice = totals.map { Int64($0.viceBlocks) }
        let goals = totals.map { Int64($0.goalBlocks) }
        let versions = totals.map(\.version)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.query(
                """
                SELECT screenmates.upsert_day_totals(\(code.value), \(users), \(dates), \(vice), \(goals), \(versions))
                """
            ).collect()
        }
        guard try known(rows, "storing day totals") else { throw .unknownCode(code) }
    }

    public func dayTotals(code: GroupCode, days: ClosedRange<LocalDate>) async throws(GroupStoreError) -> [DayTotal] {
        let first = Int64(GroupStoreRules.clampedDayNumber(days.lowerBound))
        let last = Int64(GroupStoreRules.clampedDayNumber(days.upperBound))
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.query(
                """
                SELECT known, user_id, date, vice_blocks, goal_blocks, version
                FROM screenmates.group_day_totals(\(code.value), \(first), \(last))
                """
            ).collect()
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        return try decode("the day totals") {
            try rows.map { row in
                let (_, userID, date, vice, goal, version) = try row.decode(
                    (Bool, String, Int64, Int64, Int64, Int64).self)
                return DayTotal(
                    userID: try Self.userID(userID), date: try Self.localDate(date), viceBlocks: Int(vice),
                    goalBlocks: Int(goal),
                    version: version)
            }
        }
    }

    public func changeMark(code: GroupCode) async throws(GroupStoreError) -> Int64 {
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.query("SELECT screenmates.change_mark(\(code.value))").collect()
        }
        let mark = try decode("the change mark") {
            guard let row = rows.first else { throw UnreadableValue(what: "no change mark") }
            return try row.decode(Int64?.self)
        }
        guard let mark else { throw .unknownCode(code) }
        return mark
    }

    /// Backed by LISTEN on one dedicated connection (see `PostgresChangeFeed`): it yields when
    /// the group's channel is listened to — at first and after every reconnect, so the consumer
    /// catches up on what it may have missed — and on every notification.
    public func changes(code: GroupCode) -> AsyncStream<Void> {
        feed.watch(code)
    }

    // MARK: - Running queries

    /// Runs `body` with the schema ready, giving up after the address's timeout.
    func perform<T: Sendable>(
        _ context: OperationContext, _ body: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws(GroupStoreError) -> T {
        try await prepare()
        let client = self.client
        do {
            return try await withDeadline(address.timeout) { try await body(client) }
        } catch {
            let mapped = GroupStoreError.postgres(error, location: address.description, context: context)
            if mapped.isTransient { schemaReady.withLock { $0 = false } }
            throw mapped
        }
    }

    /// Reads rows that came back; a value that cannot be right is damage (`.unusable`).
    func decode<T>(_ what: String, _ body: () throws -> T) throws(GroupStoreError) -> T {
        do {
            return try body()
        } catch {
            throw .postgres(error, location: address.description, context: OperationContext())
        }
    }

    /// The answer of a function that says whether the code named a group.
    func known(_ rows: [PostgresRow], _ what: String) throws(GroupStoreError) -> Bool {
        try decode(what) {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to \(what)") }
            return try row.decode(Bool.self)
        }
    }

    /// Whether rows whose first column is `known` say that the code named no group.
    func firstIsUnknown(_ rows: [PostgresRow]) throws(GroupStoreError) -> Bool {
        try decode("a group's rows") {
            guard let row = rows.first else { return false }
            return try row.decode(Bool.self, context: .default) == false
        }
    }

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
            return Group(
                code: code, dailyGoalBlocks: Int(goal), memberCount: Int(count),
                createdAt: Self.date(milliseconds: createdAt))
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

    /// A profile as the functions' parameters.
    private struct ProfileParameters: Sendable {
        let userID: String
        let name: String
        let nameKey: String
        let blocks: Int64
        let day: Int64
        let streak: Int64
        let lastActive: Int64?
        let lastUpdated: Int64
        let version: Int64

        init(_ profile: MemberProfile) throws(GroupStoreError) {
            userID = profile.userID.value
            name = profile.displayName.value
            nameKey = profile.displayName.uniquenessKey
            blocks = Int64(profile.blocksToday)
            day = Int64(profile.day.dayNumber)
            streak = Int64(profile.streak)
            lastActive = try profile.lastActive.map { instant throws(GroupStoreError) in
                try PostgresGroupStore.milliseconds(instant)
            }
            lastUpdated = try PostgresGroupStore.milliseconds(profile.lastUpdated)
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

    static func milliseconds(_ instant: Date) throws(GroupStoreError) -> Int64 {
        guard GroupStoreRules.isStorable(instant) else {
            throw .invalidValue("\(instant) is not an instant the group store can keep.")
        }
        return Int64((instant.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
