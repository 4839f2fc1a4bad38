import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

/// The group store on one SQLite file shared by every member on a host (each member's
/// `--group-store` points at it; the directory's permissions decide who may use it).
///
/// Many processes use the file at once: it is a WAL-mode `DatabasePool` whose writes queue on a
/// busy timeout, and every write is one immediate transaction that also adds one to its group's
/// change mark, so a read-then-write (a version check, a name check, a fresh code) can never
/// interleave with another process's write. The file is created and migrated under an exclusive
/// `flock`, so two processes creating it at once both succeed, and is created with mode 0660
/// (its WAL companions take the same mode).
public final class SQLiteGroupStore: GroupStore {
    /// The database file.
    public let path: String
    private let pool: DatabasePool

    /// How long a write waits for other processes' writes before the store counts as
    /// unavailable, unless `open` is told otherwise.
    public static let defaultBusyTimeout: TimeInterval = 5

    private init(path: String, pool: DatabasePool) {
        self.path = path
        self.pool = pool
    }

    /// Opens the store at `path`, creating the file (mode 0660) and its schema if needed.
    ///
    /// Fails with `.unusable` when the file is not a database, is damaged, holds another kind
    /// of database (which is left untouched), or was written by a newer version; with
    /// `.unavailable` when its directory is missing, permissions forbid it, or another process
    /// keeps it locked beyond `busyTimeout` seconds. An up-to-date schema is not written to, so
    /// a file that may only be read still opens (and writes then fail as `.unavailable`).
    public static func open(at path: String, busyTimeout: TimeInterval = defaultBusyTimeout) throws(GroupStoreError)
        -> SQLiteGroupStore
    {
        let lock = try GroupStoreFileLock.exclusive(forStoreAt: path, timeout: busyTimeout)
        defer { lock.release() }
        try createSharedFile(at: path)
        do {
            let needsMigration = try SQLiteGroupSchema.needsMigration(path: path, busyTimeout: busyTimeout)
            let pool: DatabasePool
            do {
                pool = try DatabasePool(
                    path: path, configuration: configuration(busyTimeout: busyTimeout, readonly: false))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
                pool = try DatabasePool(
                    path: path, configuration: configuration(busyTimeout: busyTimeout, readonly: true))
            }
            if needsMigration { try SQLiteGroupSchema.makeMigrator().migrate(pool) }
            if !pool.configuration.readonly {
                // Committed means durable: a day marked synced must not vanish in a power cut.
                // (The pool sets `synchronous = NORMAL` on its writer when it turns WAL on.)
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            }
            return SQLiteGroupStore(path: path, pool: pool)
        } catch {
            throw .sqlite(error, location: path)
        }
    }

    private static func configuration(busyTimeout: TimeInterval, readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = readonly
        configuration.label = "ScreenMates.groups"
        return configuration
    }

    /// Creates the file with mode 0660 before SQLite does (SQLite gives the `-wal` and `-shm`
    /// files it derives from it the same mode). An existing file is left as its owner made it.
    private static func createSharedFile(at path: String) throws(GroupStoreError) {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o660)
        if fd >= 0 {
            fchmod(fd, 0o660)  // The umask may have taken the group's bits.
            close(fd)
            return
        }
        let code = errno
        if code == EEXIST || access(path, F_OK) == 0 { return }  // SQLite says what it can do with it.
        throw .unavailable(location: path, detail: String(cString: strerror(code)))
    }

    // MARK: - GroupStore

    public func createGroup(dailyGoalBlocks: Int, creator: MemberProfile, now: Date) async throws(GroupStoreError)
        -> Group
    {
        try GroupStoreRules.check(dailyGoalBlocks: dailyGoalBlocks)
        try GroupStoreRules.check(creator)
        let createdAt = try Self.milliseconds(now)
        return try await write { db in
            var generator = SystemRandomNumberGenerator()
            var code = GroupCode.random(using: &generator)
            while try Self.fetchGroup(db, code: code) != nil { code = GroupCode.random(using: &generator) }
            try db.execute(
                sql: "INSERT INTO group_info (code, daily_goal_blocks, created_at, change_seq) VALUES (?, ?, ?, 1)",
                arguments: [code.value, dailyGoalBlocks, createdAt])
            try Self.insertMember(db, creator, code: code, joinedAt: createdAt)
            return Group(
                code: code, dailyGoalBlocks: dailyGoalBlocks, memberCount: 1,
                createdAt: Self.date(milliseconds: createdAt))
        }
    }

    public func group(code: GroupCode, userID: String, now: Date) async throws(GroupStoreError) -> Group? {
        try GroupStoreRules.check(userID: userID)
        let at = try Self.milliseconds(now)
        // A right code is only read; a wrong one is written down, which needs a write.
        let seen: Lookup = try await read { db in
            if let seconds = try Self.retryAfter(db, userID: userID, at: at) { return Lookup.limited(seconds) }
            return try Self.fetchGroup(db, code: code).map(Lookup.found) ?? .unknown
        }
        let outcome: Lookup
        if case .unknown = seen {
            outcome = try await write { db in
                try Self.lookUp(db, code: code, userID: userID, at: at)
            }
        } else {
            outcome = seen
        }
        switch outcome {
        case .found(let group): return group
        case .unknown: return nil
        case .limited(let seconds): throw .tooManyAttempts(retryAfterSeconds: seconds)
        }
    }

    public func join(code: GroupCode, member: MemberProfile, now: Date) async throws(GroupStoreError) -> Group {
        try GroupStoreRules.check(member)
        let at = try Self.milliseconds(now)
        let outcome: Lookup = try await write { db in
            let found = try Self.lookUp(db, code: code, userID: member.userID, at: at)
            guard case .found = found else { return found }
            if try Self.storedVersion(db, userID: member.userID, code: code) != nil {
                try Self.apply(db, member, code: code)
            } else {
                if try Self.nameIsTaken(db, member.displayName, code: code, byOtherThan: member.userID) {
                    throw GroupStoreError.nameTaken(member.displayName)
                }
                try Self.insertMember(db, member, code: code, joinedAt: at)
                try Self.bump(db, code: code)
            }
            return try Self.fetchGroup(db, code: code).map(Lookup.found) ?? .unknown
        }
        switch outcome {
        case .found(let group): return group
        case .unknown: throw .unknownCode(code)
        case .limited(let seconds): throw .tooManyAttempts(retryAfterSeconds: seconds)
        }
    }

    /// Also removes the member's day totals: leaving withdraws what they shared. Leaving a
    /// group one is not in changes nothing and succeeds; an unknown code fails.
    public func leave(code: GroupCode, userID: String) async throws(GroupStoreError) {
        try GroupStoreRules.check(userID: userID)
        try await write { db in
            guard try Self.fetchGroup(db, code: code) != nil else { throw GroupStoreError.unknownCode(code) }
            try db.execute(
                sql: "DELETE FROM member WHERE code = ? AND user_id = ?", arguments: [code.value, userID])
            guard db.changesCount > 0 else { return }
            try db.execute(
                sql: "DELETE FROM day_total WHERE code = ? AND user_id = ?", arguments: [code.value, userID])
            try Self.bump(db, code: code)
        }
    }

    /// The profile goes to every group the user is a member of (the app keeps one); the
    /// result is whether any of them stored it. Atomic: when the name is taken in one of the
    /// groups, none changes. A user in no group gets `.notAMember` naming the group they joined
    /// last; one who never joined a group in this store gets `.invalidValue`.
    @discardableResult
    public func upsertProfile(_ profile: MemberProfile) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(profile)
        return try await write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT code FROM member WHERE user_id = ? ORDER BY code", arguments: [profile.userID])
            let codes = try rows.map { row throws in try Self.code(row, in: "member") }
            guard !codes.isEmpty else {
                let last = try Row.fetchOne(
                    db, sql: "SELECT code FROM last_group WHERE user_id = ?", arguments: [profile.userID])
                if let last { throw GroupStoreError.notAMember(code: try Self.code(last, in: "last_group")) }
                throw GroupStoreError.invalidValue(
                    "User \(profile.userID) has not joined a group in this group store; join one first.")
            }
            var stored = false
            for code in codes {
                if try Self.apply(db, profile, code: code) { stored = true }
            }
            return stored
        }
    }

    /// Every member of the group, in the order they joined.
    public func members(code: GroupCode) async throws(GroupStoreError) -> [MemberProfile] {
        try await read { db in
            guard try Self.fetchGroup(db, code: code) != nil else { throw GroupStoreError.unknownCode(code) }
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM member WHERE code = ? ORDER BY joined_at, user_id", arguments: [code.value])
            return try rows.map(Self.profile)
        }
    }

    /// Totals of users who are not members of the group are ignored; an unknown code fails.
    public func upsertDayTotals(_ totals: [DayTotal], code: GroupCode) async throws(GroupStoreError) {
        for total in totals { try GroupStoreRules.check(total) }
        guard !totals.isEmpty else { return }
        try await write { db in
            guard try Self.fetchGroup(db, code: code) != nil else { throw GroupStoreError.unknownCode(code) }
            let rows = try Row.fetchAll(db, sql: "SELECT user_id FROM member WHERE code = ?", arguments: [code.value])
            let members = Set(try rows.map { row throws -> String in try row.checked("user_id", in: "member") })
            var changed = false
            for total in totals where members.contains(total.userID) {
                try db.execute(
                    sql: """
                        INSERT INTO day_total (code, user_id, date, vice_blocks, goal_blocks, version)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (code, user_id, date) DO UPDATE SET
                            vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks,
                            version = excluded.version
                        WHERE excluded.version > day_total.version
                        """,
                    arguments: [
                        code.value, total.userID, total.date.dayNumber, total.viceBlocks, total.goalBlocks,
                        total.version,
                    ])
                if db.changesCount > 0 { changed = true }
            }
            if changed { try Self.bump(db, code: code) }
        }
    }

    /// Ordered by date, then user id.
    public func dayTotals(code: GroupCode, days: ClosedRange<LocalDate>) async throws(GroupStoreError) -> [DayTotal] {
        let first = GroupStoreRules.clampedDayNumber(days.lowerBound)
        let last = GroupStoreRules.clampedDayNumber(days.upperBound)
        return try await read { db in
            guard try Self.fetchGroup(db, code: code) != nil else { throw GroupStoreError.unknownCode(code) }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, date, vice_blocks, goal_blocks, version FROM day_total
                    WHERE code = ? AND date BETWEEN ? AND ? ORDER BY date, user_id
                    """, arguments: [code.value, first, last])
            return try rows.map { row throws in
                let table = "day_total"
                return DayTotal(
                    userID: try row.checked("user_id", in: table), date: try Self.localDate(row, "date", in: table),
                    viceBlocks: try row.checked("vice_blocks", in: table),
                    goalBlocks: try row.checked("goal_blocks", in: table),
                    version: try row.checked("version", in: table))
            }
        }
    }

    public func blockSums(code: GroupCode, days: ClosedRange<LocalDate>) async throws(GroupStoreError) -> [String: Int]
    {
        let first = GroupStoreRules.clampedDayNumber(days.lowerBound)
        let last = GroupStoreRules.clampedDayNumber(days.upperBound)
        return try await read { db in
            guard try Self.fetchGroup(db, code: code) != nil else { throw GroupStoreError.unknownCode(code) }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, SUM(vice_blocks) AS blocks FROM day_total
                    WHERE code = ? AND date BETWEEN ? AND ? GROUP BY user_id
                    """, arguments: [code.value, first, last])
            var sums: [String: Int] = [:]
            for row in rows {
                sums[try row.checked("user_id", in: "day_total")] = try row.checked("blocks", in: "day_total")
            }
            return sums
        }
    }

    public func changeMark(code: GroupCode) async throws(GroupStoreError) -> Int64 {
        try await read { db in try Self.changeMark(db, code: code) }
    }

    /// Backed by an inotify watch of the file's directory (see `GroupChangeWatch`): another
    /// process's commit is seen within milliseconds, and a quiet group costs a read every few
    /// seconds.
    public func changes(code: GroupCode) -> AsyncStream<Void> {
        changes(code: code, safetyInterval: nil)
    }

    /// `changes(code:)` with another interval for the safety poll.
    func changes(code: GroupCode, safetyInterval: Duration?) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let pool = self.pool
        let readMark: @Sendable () -> Int64? = {
            try? pool.read { db in try Self.changeMark(db, code: code) }
        }
        // The watch is in place before this returns, and its first reading of the mark yields:
        // a commit after this call is either before that reading or noticed.
        let watch = GroupChangeWatch(
            path: path, readMark: readMark, continuation: continuation, safetyInterval: safetyInterval)
        continuation.onTermination = { _ in watch.stop() }
        watch.start()
        return stream
    }

    // MARK: - Beyond the protocol

    /// What SQLite's integrity check finds wrong with the file; empty when it is sound.
    public func integrityProblems() async throws(GroupStoreError) -> [String] {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: "PRAGMA integrity_check")
            let lines = try rows.map { row throws -> String in
                guard let line = String.fromDatabaseValue(row[0] as DatabaseValue) else {
                    throw UnreadableValue(table: "integrity_check", column: "result")
                }
                return line
            }
            return lines == ["ok"] ? [] : lines
        }
    }

    // MARK: - Transactions

    /// The outcome of looking a code up for a user.
    private enum Lookup: Sendable {
        case found(Group)
        case unknown
        case limited(Int)
    }

    private func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(GroupStoreError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw .sqlite(error, location: path)
        }
    }

    /// One immediate transaction: it waits (up to the busy timeout) for other writers before it
    /// reads anything, so what it reads stays true until it commits.
    private func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(GroupStoreError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw .sqlite(error, location: path)
        }
    }

    /// The group, unless the user is rate-limited; a code that names no group is written down
    /// as a failed attempt of the user.
    private static func lookUp(_ db: Database, code: GroupCode, userID: String, at: Int64) throws -> Lookup {
        if let seconds = try retryAfter(db, userID: userID, at: at) { return .limited(seconds) }
        if let group = try fetchGroup(db, code: code) { return .found(group) }
        let window = Int64(GroupStoreRules.attemptWindow * 1000)
        try db.execute(
            sql: "DELETE FROM failed_attempt WHERE user_id = ? AND at <= ?", arguments: [userID, at - window])
        try db.execute(sql: "INSERT INTO failed_attempt (user_id, at) VALUES (?, ?)", arguments: [userID, at])
        return .unknown
    }

    private static func retryAfter(_ db: Database, userID: String, at: Int64) throws -> Int? {
        let window = Int64(GroupStoreRules.attemptWindow * 1000)
        let rows = try Row.fetchAll(
            db, sql: "SELECT at FROM failed_attempt WHERE user_id = ? AND at > ? AND at <= ?",
            arguments: [userID, at - window, at])
        let failures = try rows.map { row throws in date(milliseconds: try row.checked("at", in: "failed_attempt")) }
        return GroupStoreRules.retryAfter(failures: failures, now: date(milliseconds: at))
    }

    /// Stores `profile` in the group if its version is newer than the stored one.
    @discardableResult
    private static func apply(_ db: Database, _ profile: MemberProfile, code: GroupCode) throws -> Bool {
        guard let stored = try storedVersion(db, userID: profile.userID, code: code) else {
            throw GroupStoreError.notAMember(code: code)
        }
        guard profile.version > stored else { return false }
        if try nameIsTaken(db, profile.displayName, code: code, byOtherThan: profile.userID) {
            throw GroupStoreError.nameTaken(profile.displayName)
        }
        try db.execute(
            sql: """
                UPDATE member SET display_name = ?, name_key = ?, blocks_today = ?, day = ?, streak = ?,
                    last_active = ?, last_updated = ?, version = ?
                WHERE code = ? AND user_id = ?
                """,
            arguments: [
                profile.displayName.value, profile.displayName.uniquenessKey, profile.blocksToday,
                profile.day.dayNumber, profile.streak, try profile.lastActive.map(milliseconds),
                try milliseconds(profile.lastUpdated), profile.version, code.value, profile.userID,
            ])
        try bump(db, code: code)
        return true
    }

    private static func insertMember(_ db: Database, _ profile: MemberProfile, code: GroupCode, joinedAt: Int64)
        throws
    {
        try db.execute(
            sql: """
                INSERT INTO member (code, user_id, display_name, name_key, blocks_today, day, streak, last_active,
                    last_updated, version, joined_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                code.value, profile.userID, profile.displayName.value, profile.displayName.uniquenessKey,
                profile.blocksToday, profile.day.dayNumber, profile.streak, try profile.lastActive.map(milliseconds),
                try milliseconds(profile.lastUpdated), profile.version, joinedAt,
            ])
        try db.execute(
            sql: """
                INSERT INTO last_group (user_id, code) VALUES (?, ?)
                ON CONFLICT (user_id) DO UPDATE SET code = excluded.code
                """, arguments: [profile.userID, code.value])
    }

    /// Every write to a group moves its change mark, in the writing transaction.
    private static func bump(_ db: Database, code: GroupCode) throws {
        try db.execute(sql: "UPDATE group_info SET change_seq = change_seq + 1 WHERE code = ?", arguments: [code.value])
    }

    // MARK: - Rows

    private static func fetchGroup(_ db: Database, code: GroupCode) throws -> Group? {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT daily_goal_blocks, created_at, (SELECT count(*) FROM member WHERE member.code = group_info.code)
                    AS member_count
                FROM group_info WHERE code = ?
                """, arguments: [code.value])
        guard let row else { return nil }
        let table = "group_info"
        return Group(
            code: code, dailyGoalBlocks: try row.checked("daily_goal_blocks", in: table),
            memberCount: try row.checked("member_count", in: table),
            createdAt: date(milliseconds: try row.checked("created_at", in: table)))
    }

    private static func changeMark(_ db: Database, code: GroupCode) throws -> Int64 {
        let row = try Row.fetchOne(db, sql: "SELECT change_seq FROM group_info WHERE code = ?", arguments: [code.value])
        guard let row else { throw GroupStoreError.unknownCode(code) }
        return try row.checked("change_seq", in: "group_info")
    }

    private static func storedVersion(_ db: Database, userID: String, code: GroupCode) throws -> Int64? {
        let row = try Row.fetchOne(
            db, sql: "SELECT version FROM member WHERE code = ? AND user_id = ?", arguments: [code.value, userID])
        return try row.map { row throws in try row.checked("version", in: "member") }
    }

    private static func nameIsTaken(_ db: Database, _ name: DisplayName, code: GroupCode, byOtherThan userID: String)
        throws -> Bool
    {
        try Row.fetchOne(
            db, sql: "SELECT 1 FROM member WHERE code = ? AND name_key = ? AND user_id <> ?",
            arguments: [code.value, name.uniquenessKey, userID]) != nil
    }

    private static func profile(_ row: Row) throws -> MemberProfile {
        let table = "member"
        let name: String = try row.checked("display_name", in: table)
        guard let displayName = try? DisplayName(validating: name) else {
            throw UnreadableValue(table: table, column: "display_name")
        }
        let lastActive: Int64? = try row.checkedIfPresent("last_active", in: table)
        return MemberProfile(
            userID: try row.checked("user_id", in: table), displayName: displayName,
            blocksToday: try row.checked("blocks_today", in: table), day: try localDate(row, "day", in: table),
            streak: try row.checked("streak", in: table), lastActive: lastActive.map(date(milliseconds:)),
            lastUpdated: date(milliseconds: try row.checked("last_updated", in: table)),
            version: try row.checked("version", in: table))
    }

    private static func code(_ row: Row, in table: String) throws -> GroupCode {
        let text: String = try row.checked("code", in: table)
        guard let code = try? GroupCode(validating: text) else { throw UnreadableValue(table: table, column: "code") }
        return code
    }

    /// A day number read back as a date; one outside the years any engine keeps is damage.
    private static func localDate(_ row: Row, _ column: String, in table: String) throws -> LocalDate {
        let number: Int = try row.checked(column, in: table)
        let range = GroupStoreRules.storableDates
        guard (range.lowerBound.dayNumber...range.upperBound.dayNumber).contains(number) else {
            throw UnreadableValue(table: table, column: column)
        }
        return LocalDate(dayNumber: number)
    }

    // MARK: - Instants

    private static func milliseconds(_ instant: Date) throws(GroupStoreError) -> Int64 {
        guard GroupStoreRules.isStorable(instant) else {
            throw .invalidValue("\(instant) is not an instant the group store can keep.")
        }
        return Int64((instant.timeIntervalSince1970 * 1000).rounded())
    }

    private static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
