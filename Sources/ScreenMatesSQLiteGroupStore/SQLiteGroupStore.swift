import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows
import ScreenMatesWatch
import Synchronization

/// The group store on one SQLite file shared by every member on a host (each member's
/// `--group-store` points at it; the directory's permissions decide who may use it).
///
/// Many processes use the file at once: it is a WAL-mode `DatabasePool` whose writes queue on a
/// busy timeout, and every write is one immediate transaction that also adds one to its group's
/// change mark, so a read-then-write (a version check, a name check, a fresh code) can never
/// interleave with another process's write. The file is created and migrated under an exclusive
/// `flock`, so two processes creating it at once both succeed, and is created with mode 0660
/// (its WAL companions take the same mode).
///
/// Everyone who can write the file is trusted with all of it, so the store defends its readers
/// from what they may have written: every row is checked as it is read (a bad one is left out and
/// named, `StoredGroupRow`), every connection runs with SQLite's defensive settings, no symbolic
/// link is followed (`SharedFileDefences`), and a file carrying a trigger or a view the store did
/// not create is refused (`ForeignSchemaObjects`).
///
/// Each `changes(code:)` stream is watched by a thread of the store's own; `close` ends and
/// joins them.
public final class SQLiteGroupStore: GroupStore {
    /// The database file.
    public let path: String
    /// The pool, and whether it was opened only for reading because another program held the
    /// file's write lock at `open` (the first write then opens the writing one).
    let pools: Mutex<(pool: DatabasePool, opensForWriting: Bool)>
    let busyTimeout: TimeInterval
    /// The change watches whose threads have not been joined yet; nil once closed.
    private let watches = Mutex<[ObjectIdentifier: GroupChangeWatch]?>([:])

    /// The pool reads go through.
    var pool: DatabasePool { pools.withLock { $0.pool } }

    /// How long a write waits for other processes' writes before the store counts as
    /// unavailable, unless `open` is told otherwise.
    public static let defaultBusyTimeout: TimeInterval = 5

    /// A store on `pool`; `open` makes one.
    init(path: String, pool: DatabasePool, opensForWriting: Bool, busyTimeout: TimeInterval) {
        self.path = path
        self.pools = Mutex((pool, opensForWriting))
        self.busyTimeout = busyTimeout
    }

    /// A store dropped without `close`: its watches are told to end (their streams finish),
    /// and their threads end by themselves, unjoined.
    deinit {
        for watch in (watches.withLock { $0 } ?? [:]).values { watch.stop() }
    }

    /// Ends every `changes(code:)` stream and waits until the threads watching for them are
    /// gone. Further streams end at once; the store still reads and writes.
    public func close() async {
        let open = watches.withLock { watches in
            defer { watches = nil }
            return Array((watches ?? [:]).values)
        }
        for watch in open { watch.stop() }
        for watch in open { await watch.join() }
    }

    /// The ids of the threads watching for changes, while they run: for tests, which look for
    /// them in `/proc/self/task`.
    var changeWatchThreadIDs: [Int32] {
        (watches.withLock { $0 } ?? [:]).values.map(\.threadID).filter { $0 != 0 }
    }

    // MARK: - GroupStore

    public func createGroup(dailyGoalBlocks: Int, creator: MemberProfile, machine: MachineID?, now: Date)
        async throws(GroupStoreError) -> Group
    {
        try GroupStoreRules.check(dailyGoalBlocks: dailyGoalBlocks)
        try GroupStoreRules.check(creator)
        let createdAt = try StoredInstant.milliseconds(now)
        return try await write { db in
            var generator = SystemRandomNumberGenerator()
            var code = GroupCode.random(using: &generator)
            while try GroupInfoRecord.exists(db, code: code) { code = GroupCode.random(using: &generator) }
            try GroupInfoRecord(code: code.value, dailyGoalBlocks: dailyGoalBlocks, createdAt: createdAt, changeSeq: 1)
                .insert(db)
            try Self.machineProfile(db, creator, machine: machine, now: createdAt)
            try Self.insert(db, Self.today(db, of: MemberRecord(creator, code: code, joinedAt: createdAt)))
            return Group(
                code: code, dailyGoalBlocks: dailyGoalBlocks, memberCount: 1,
                createdAt: StoredInstant.date(milliseconds: createdAt))
        }
    }

    public func group(code: GroupCode, userID: UserID, now: Date) async throws(GroupStoreError) -> Group? {
        let at = try StoredInstant.milliseconds(now)
        // A right code is only read; a wrong one is written down, which needs a write.
        let seen: Lookup = try await read { db in
            if let seconds = try Self.retryAfter(db, userID: userID, at: at) { return Lookup.limited(seconds) }
            return try GroupInfoRecord.group(db, code: code).map(Lookup.found) ?? .unknown
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

    public func join(code: GroupCode, member: MemberProfile, machine: MachineID?, now: Date)
        async throws(GroupStoreError) -> Group
    {
        try GroupStoreRules.check(member)
        let at = try StoredInstant.milliseconds(now)
        let record = try MemberRecord(member, code: code, joinedAt: at)
        let outcome: Lookup = try await write { db in
            let found = try Self.lookUp(db, code: code, userID: member.userID, at: at)
            guard case .found = found else { return found }
            if try !Self.memberships(db, userID: member.userID, code: code).isEmpty {
                let written = try Self.machineProfile(db, member, machine: machine, now: at)
                if written.stored { try Self.apply(db, member, code: code, renamed: written.renamed) }
            } else {
                if try Self.nameIsTaken(db, member.displayName, code: code, byOtherThan: member.userID) {
                    throw GroupStoreError.nameTaken(member.displayName)
                }
                try Self.machineProfile(db, member, machine: machine, now: at)
                try Self.insert(db, Self.today(db, of: record))
                try Self.bump(db, code: code)
            }
            return try GroupInfoRecord.group(db, code: code).map(Lookup.found) ?? .unknown
        }
        switch outcome {
        case .found(let group): return group
        case .unknown: throw .unknownCode(code)
        case .limited(let seconds): throw .tooManyAttempts(retryAfterSeconds: seconds)
        }
    }

    /// Also removes the member's day totals: leaving withdraws what they shared. Leaving a
    /// group one is not in changes nothing and succeeds; an unknown code fails.
    public func leave(code: GroupCode, userID: UserID) async throws(GroupStoreError) {
        try await write { db in
            try Self.requireGroup(db, code: code)
            let removed = try MemberRecord.inGroup(code).filter(MemberRecord.Columns.userID == userID).deleteAll(db)
            guard removed > 0 else { return }
            try DayTotalRecord.filter(
                DayTotalRecord.Columns.code == code.value && DayTotalRecord.Columns.userID == userID
            )
            .deleteAll(db)
            try db.execute(
                sql: "DELETE FROM machine_day_total WHERE code = ? AND user_id = ?", arguments: [code.value, userID])
            try Self.bump(db, code: code)
            // The last one out takes the group along (its challenges too; the rest went with
            // the members).
            if try MemberRecord.inGroup(code).fetchCount(db) == 0 {
                try db.execute(literal: "DELETE FROM group_challenge WHERE code = \(code.value)")
                try db.execute(literal: "DELETE FROM group_info WHERE code = \(code.value)")
            }
        }
    }

    /// The profile goes to every group the user is a member of (the app keeps one); the
    /// result is whether any of them stored it. Atomic: when the name is taken in one of the
    /// groups, none changes. A user in no group gets `.notAMember` naming the group they joined
    /// last; one who never joined a group in this store gets `.invalidValue`.
    @discardableResult
    public func upsertProfile(_ profile: MemberProfile, machine: MachineID?) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(profile)
        let now = try StoredInstant.milliseconds(Date())
        return try await write { db in
            let groups = try Self.groupsOf(db, userID: profile.userID)
            let written = try Self.machineProfile(db, profile, machine: machine, now: now)
            guard written.stored else { return false }
            for membership in groups {
                try Self.apply(db, profile, code: membership.code, renamed: written.renamed)
            }
            return true
        }
    }

    /// Totals of users who are not members of the group are ignored; an unknown code fails.
    public func upsertDayTotals(_ totals: [DayTotal], code: GroupCode, machine: MachineID?)
        async throws(GroupStoreError)
    {
        for total in totals { try GroupStoreRules.check(total) }
        guard !totals.isEmpty else { return }
        let now = try StoredInstant.milliseconds(Date())
        try await write { db in
            try Self.requireGroup(db, code: code)
            // As text: a member row whose user id is not one (someone else's doing) is no member.
            let members = Set(
                try Row.fetchAll(db, sql: "SELECT user_id FROM member WHERE code = ?", arguments: [code.value])
                    .compactMap { row in row.readable("user_id") as String? })
            var changed = false
            let byMember = Dictionary(grouping: totals.filter { members.contains($0.userID.value) }, by: \.userID)
            for (userID, own) in byMember.sorted(by: { $0.key < $1.key }) {
                try Self.ownMachine(db, userID: userID, machine: machine, now: now)
                let stored = try Self.storeMachineDays(
                    db, own, code: code, userID: userID, machine: machine?.value ?? Self.first)
                if stored { changed = true }
            }
            if changed { try Self.bump(db, code: code) }
        }
    }

    public func changeMark(code: GroupCode) async throws(GroupStoreError) -> Int64 {
        try await read { db in try Self.changeMark(db, code: code) }
    }

    public func changeMarks(code: GroupCode) async throws(GroupStoreError) -> GroupChangeMarks {
        try await read { db in
            guard let marks = try GroupInfoRecord.changeMarks(db, code: code) else {
                throw GroupStoreError.unknownCode(code)
            }
            return marks
        }
    }

    /// None: the shared file keeps no number of the games' own (a schema of its own would be a new
    /// level of the file for every member's program), and reading them from a local file costs
    /// little, so they are read at every change.
    public func gamesMarks(code: GroupCode) async throws(GroupStoreError) -> GroupGamesMarks? { nil }

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
        // Watches whose streams have ended are joined here (their threads are gone or about to
        // be), so a long-lived store does not collect them. The new one starts under the lock,
        // so that `close` either finds it or it never starts.
        let (started, ended) = watches.withLock { watches -> (Bool, [GroupChangeWatch]) in
            guard var open = watches else { return (false, []) }
            let ended = open.values.filter(\.hasEnded)
            for watch in ended { open[ObjectIdentifier(watch)] = nil }
            open[ObjectIdentifier(watch)] = watch
            watch.start()
            watches = open
            return (true, ended)
        }
        for watch in ended { watch.joinEnded() }
        if !started { continuation.finish() }
        return stream
    }

    // MARK: - Beyond the protocol

    /// What SQLite's integrity check finds wrong with the file; empty when it is sound.
    public func integrityProblems() async throws(GroupStoreError) -> [String] {
        try await read { db in
            let lines = try Row.fetchAll(db, sql: "PRAGMA integrity_check").map { row throws in
                try row.decode(String.self, atIndex: 0)
            }
            return lines == ["ok"] ? [] : lines
        }
    }

    // MARK: - Inside a transaction

    /// The outcome of looking a code up for a user.
    private enum Lookup: Sendable {
        case found(Group)
        case unknown
        case limited(Int)
    }

    /// The group, unless the user is rate-limited; a code that names no group is written down
    /// as a failed attempt of the user, and every user's attempts that no longer count go.
    private static func lookUp(_ db: Database, code: GroupCode, userID: UserID, at: Int64) throws -> Lookup {
        if let seconds = try retryAfter(db, userID: userID, at: at) { return .limited(seconds) }
        if let group = try GroupInfoRecord.group(db, code: code) { return .found(group) }
        let window = Int64(GroupStoreRules.attemptWindow * 1000)
        try FailedAttemptRecord.filter(FailedAttemptRecord.Columns.at <= at - window).deleteAll(db)
        try FailedAttemptRecord(userID: userID, at: at).insert(db)
        return .unknown
    }

    private static func retryAfter(_ db: Database, userID: UserID, at: Int64) throws -> Int? {
        let window = Int64(GroupStoreRules.attemptWindow * 1000)
        // A row whose instant cannot be read is no failure anyone made here.
        let failures = try Row.fetchAll(
            db, sql: "SELECT at FROM failed_attempt WHERE user_id = ? AND at > ? AND at <= ?",
            arguments: [userID, at - window, at]
        ).compactMap { row in (row.readable("at") as Int64?).map(StoredInstant.date(milliseconds:)) }
        return GroupStoreRules.retryAfter(failures: failures, now: StoredInstant.date(milliseconds: at))
    }

    /// Brings the member's row in `code` up to date after one of their machines sent a newer
    /// profile (`machineProfile`), as the server's `apply_profile` does: blocks and day are the
    /// member's today across their machines (`memberToday`), the streak and instants the
    /// machine's, the version the highest seen; the name changes only when `renamed`. Only a row
    /// that differs is written, and the change mark moved. A row whose values cannot be read
    /// (someone else's damage) is mended, so no one can lock a member out of their own row.
    private static func apply(_ db: Database, _ profile: MemberProfile, code: GroupCode, renamed: Bool) throws {
        if renamed, try nameIsTaken(db, profile.displayName, code: code, byOtherThan: profile.userID) {
            throw GroupStoreError.nameTaken(profile.displayName)
        }
        let record = try today(db, of: MemberRecord(profile, code: code, joinedAt: 0))
        try db.execute(
            sql: """
                UPDATE member SET
                    display_name = CASE WHEN :renamed THEN :name ELSE display_name END,
                    name_key = CASE WHEN :renamed THEN :key ELSE name_key END,
                    blocks_today = :blocks, day = :day, streak = :streak, last_active = :active,
                    last_updated = :updated,
                    version = CASE WHEN typeof(version) = 'integer' AND version > :version THEN version ELSE :version END
                WHERE code = :code AND user_id = :user AND (
                    (:renamed AND display_name IS NOT :name) OR blocks_today IS NOT :blocks OR day IS NOT :day
                    OR streak IS NOT :streak OR last_active IS NOT :active OR last_updated IS NOT :updated
                    OR typeof(version) <> 'integer' OR version < :version)
                """,
            arguments: [
                "renamed": renamed, "name": record.displayName, "key": record.nameKey, "blocks": record.blocksToday,
                "day": record.day, "streak": record.streak, "active": record.lastActive,
                "updated": record.lastUpdated, "version": record.version, "code": code.value,
                "user": profile.userID,
            ])
        if db.changesCount > 0 { try bump(db, code: code) }
    }

    /// `record` with the member's today across their machines (`memberToday`) in place of the
    /// one machine's.
    private static func today(_ db: Database, of record: MemberRecord) throws -> MemberRecord {
        var record = record
        if let today = try memberToday(db, userID: record.userID) {
            record.day = today.day
            record.blocksToday = today.blocks
        }
        return record
    }

    /// The user's memberships: each group and the profile version stored there (nil when it
    /// cannot be read). A row whose code is not a group code is no membership.
    static func memberships(_ db: Database, userID: UserID, code: GroupCode? = nil) throws
        -> [(code: GroupCode, version: Int64?)]
    {
        var sql = "SELECT code, version FROM member WHERE user_id = ?"
        var arguments: StatementArguments = [userID]
        if let code {
            sql += " AND code = ?"
            arguments += [code.value]
        }
        return try Row.fetchAll(db, sql: sql + " ORDER BY code", arguments: arguments).compactMap { row in
            guard let text: String = row.readable("code"), let code = try? GroupCode(validating: text) else {
                return nil
            }
            return (code, row.readable("version"))
        }
    }

    /// A new member, and the group they joined last.
    private static func insert(_ db: Database, _ member: MemberRecord) throws {
        try member.insert(db)
        try LastGroupRecord(userID: member.userID, code: member.code).insert(db, onConflict: .replace)
    }

    /// Every write to a group moves its change mark, in the writing transaction.
    static func bump(_ db: Database, code: GroupCode) throws {
        try GroupInfoRecord.filter(GroupInfoRecord.Columns.code == code.value)
            .updateAll(db, GroupInfoRecord.Columns.changeSeq.set(to: GroupInfoRecord.Columns.changeSeq + 1))
    }

    static func requireGroup(_ db: Database, code: GroupCode) throws {
        guard try GroupInfoRecord.exists(db, code: code) else { throw GroupStoreError.unknownCode(code) }
    }

    private static func changeMark(_ db: Database, code: GroupCode) throws -> Int64 {
        guard let mark = try GroupInfoRecord.changeMark(db, code: code) else { throw GroupStoreError.unknownCode(code) }
        return mark
    }

    private static func nameIsTaken(_ db: Database, _ name: DisplayName, code: GroupCode, byOtherThan userID: UserID)
        throws -> Bool
    {
        try MemberRecord.inGroup(code)
            .filter(MemberRecord.Columns.nameKey == name.uniquenessKey && MemberRecord.Columns.userID != userID)
            .fetchCount(db) > 0
    }
}
