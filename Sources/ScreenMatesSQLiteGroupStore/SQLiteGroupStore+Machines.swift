import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

/// A member's machines in a shared file, as the server keeps them (its `own_machine`,
/// `store_machine_days`, `member_today`, `add_machine`…): each machine's days and today apart, the
/// member's sums from them. The file trusts whoever can write it with the user id they give, for
/// machines as for everything else; its defence is the checks rows meet on the way in and out.
extension SQLiteGroupStore {
    // MARK: - GroupStore

    @discardableResult
    public func addMachine(_ id: MachineID, name: MachineName, userID: UserID, adoptingFirst: Bool)
        async throws(GroupStoreError) -> MachineAdded
    {
        let now = try StoredInstant.milliseconds(Date())
        return try await write { db in
            if let known = try Self.machineRow(db, userID: userID, machine: id.value) {
                guard known.retiredAt == nil else { throw GroupStoreError.machineRetired(known.name) }
                return .known
            }
            if try Self.nameIsUsed(db, name, userID: userID, byOtherThan: nil) {
                throw GroupStoreError.machineNameTaken(name)
            }
            if adoptingFirst, let first = try Self.machineRow(db, userID: userID, machine: Self.first),
                first.retiredAt == nil
            {
                try db.execute(
                    sql: """
                        INSERT INTO machine (user_id, machine_id, name, added_at, last_seen, adopted_first,
                            blocks_today, day, streak, version, sent_name)
                        SELECT user_id, ?, ?, added_at, ?, 1, blocks_today, day, streak, 0, sent_name
                        FROM machine WHERE user_id = ? AND machine_id = 'first'
                        """, arguments: [id.value, name.value, now, userID])
                try db.execute(
                    sql:
                        "UPDATE machine_day_total SET machine_id = ?, version = 0 WHERE user_id = ? AND machine_id = 'first'",
                    arguments: [id.value, userID])
                try db.execute(
                    sql: "DELETE FROM machine WHERE user_id = ? AND machine_id = 'first'", arguments: [userID])
                return .adopted
            }
            try Self.checkMachineQuota(db, userID: userID)
            try db.execute(
                sql: "INSERT INTO machine (user_id, machine_id, name, added_at, last_seen) VALUES (?, ?, ?, ?, ?)",
                arguments: [userID, id.value, name.value, now, now])
            return .added
        }
    }

    public func machines(userID: UserID) async throws(GroupStoreError) -> [MemberMachine] {
        try await read { db, filter in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT machine_id, name, added_at, last_seen, retired_at, adopted_first, blocks_today, day, version,
                        productive_today
                    FROM machine WHERE user_id = ? ORDER BY added_at, machine_id
                    """, arguments: [userID]
            ).compactMap { row in filter.keep(row, .machine, decode: StoredMemberMachine.init(row:)) }
        }
    }

    public func machineDayTotals(code: GroupCode, userID: UserID, days: ClosedRange<LocalDate>)
        async throws(GroupStoreError) -> [MachineDayTotal]
    {
        let first = GroupStoreRules.clampedDayNumber(days.lowerBound)
        let last = GroupStoreRules.clampedDayNumber(days.upperBound)
        return try await read { db, filter in
            try Self.requireGroup(db, code: code)
            guard try !Self.memberships(db, userID: userID, code: code).isEmpty else {
                throw GroupStoreError.notAMember(code: code)
            }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT machine_id, date, vice_blocks, goal_blocks, version, productive_blocks FROM machine_day_total
                    WHERE code = ? AND user_id = ? AND date BETWEEN ? AND ?
                    ORDER BY date, machine_id <> 'first', machine_id
                    """, arguments: [code.value, userID, first, last]
            ).compactMap { row in filter.keep(row, .machineDayTotal, decode: StoredMachineDayTotal.init(row:)) }
        }
    }

    public func renameMachine(_ id: MachineID?, to name: MachineName, userID: UserID) async throws(GroupStoreError) {
        let machine = id?.value ?? Self.first
        try await write { db in
            guard let known = try Self.machineRow(db, userID: userID, machine: machine) else {
                throw GroupStoreError.unknownMachine(id)
            }
            guard known.retiredAt == nil else { throw GroupStoreError.machineRetired(known.name) }
            guard known.name != name else { return }
            if try Self.nameIsUsed(db, name, userID: userID, byOtherThan: machine) {
                throw GroupStoreError.machineNameTaken(name)
            }
            try db.execute(
                sql: "UPDATE machine SET name = ? WHERE user_id = ? AND machine_id = ?",
                arguments: [name.value, userID, machine])
        }
    }

    @discardableResult
    public func retireMachine(_ id: MachineID?, userID: UserID) async throws(GroupStoreError) -> Bool {
        let machine = id?.value ?? Self.first
        let now = try StoredInstant.milliseconds(Date())
        return try await write { db in
            guard let known = try Self.machineRow(db, userID: userID, machine: machine) else {
                throw GroupStoreError.unknownMachine(id)
            }
            guard known.retiredAt == nil else { return false }
            try db.execute(
                sql: "UPDATE machine SET retired_at = ? WHERE user_id = ? AND machine_id = ?",
                arguments: [now, userID, machine])
            return true
        }
    }

    // MARK: - Inside a transaction

    /// The id of the machine versions from before machines write as.
    static let first = "first"

    /// What a write needs of a machine's row (nil where a value cannot be read: someone else's
    /// damage, mended by the machine's next write).
    struct MachineRow {
        var name: MachineName?
        var retiredAt: Int64?
        var lastSeen: Int64?
        var version: Int64?
        var sentName: String?
    }

    static func machineRow(_ db: Database, userID: UserID, machine: String) throws -> MachineRow? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT name, retired_at, last_seen, version, sent_name FROM machine
                    WHERE user_id = ? AND machine_id = ?
                    """, arguments: [userID, machine])
        else { return nil }
        return MachineRow(
            name: (row.readable("name") as String?).flatMap { try? MachineName(validating: $0) },
            retiredAt: row.readable("retired_at"), lastSeen: row.readable("last_seen"),
            version: row.readable("version"), sentName: row.readable("sent_name"))
    }

    /// One of the member's machines that may write: `first` made on its first write (within the
    /// quotas) and refused once a machine of theirs took it over; `.unknownMachine` for one they
    /// have not added, `.machineRetired` for one they removed. Its last sighting moves, to the minute.
    @discardableResult
    static func ownMachine(_ db: Database, userID: UserID, machine id: MachineID?, now: Int64) throws -> MachineRow {
        let machine = id?.value ?? first
        guard let known = try machineRow(db, userID: userID, machine: machine) else {
            guard id == nil else { throw GroupStoreError.unknownMachine(id) }
            return try makeFirst(db, userID: userID, now: now)
        }
        guard known.retiredAt == nil else {
            guard id != nil else {
                throw GroupStoreError.invalidValue(
                    "This machine was removed from your machines (screenmates devices): it sends nothing more.")
            }
            throw GroupStoreError.machineRetired(known.name)
        }
        if (known.lastSeen ?? 0) < now - 60_000 {
            try db.execute(
                sql: "UPDATE machine SET last_seen = ? WHERE user_id = ? AND machine_id = ?",
                arguments: [now, userID, machine])
        }
        return known
    }

    private static func makeFirst(_ db: Database, userID: UserID, now: Int64) throws -> MachineRow {
        let adopted = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM machine WHERE user_id = ? AND adopted_first = 1)",
            arguments: [userID])
        if adopted == true {
            throw GroupStoreError.invalidValue(
                "ScreenMates on this machine is older than on your other machines: update it here. "
                    + "Its usage reaches your group again once it is updated.")
        }
        try checkMachineQuota(db, userID: userID)
        let base = try! MachineName(validating: first)
        var name = base
        var number = 1
        while try nameIsUsed(db, name, userID: userID, byOtherThan: nil) {
            number += 1
            name = try! MachineName(validating: "\(first)-\(number)")
        }
        try db.execute(
            sql: "INSERT INTO machine (user_id, machine_id, name, added_at, last_seen) VALUES (?, 'first', ?, ?, ?)",
            arguments: [userID, name.value, now, now])
        return MachineRow(name: name, retiredAt: nil, lastSeen: now, version: 0, sentName: nil)
    }

    /// Refuses a new machine past `GroupStoreRules.machinesPerMember` in use or
    /// `machinesKeptPerMember` in all.
    static func checkMachineQuota(_ db: Database, userID: UserID) throws {
        let inUse =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM machine WHERE user_id = ? AND retired_at IS NULL", arguments: [userID])
            ?? 0
        if inUse >= GroupStoreRules.machinesPerMember {
            throw GroupStoreError.invalidValue(
                "You use as many machines as the store allows (\(GroupStoreRules.machinesPerMember)): remove one "
                    + "first (screenmates devices remove NAME).")
        }
        let kept = try Int.fetchOne(db, sql: "SELECT count(*) FROM machine WHERE user_id = ?", arguments: [userID]) ?? 0
        if kept >= GroupStoreRules.machinesKeptPerMember {
            throw GroupStoreError.invalidValue(
                "You have had as many machines as the store keeps (\(GroupStoreRules.machinesKeptPerMember)); a "
                    + "removed one is let go once no day it sent is kept.")
        }
    }

    private static func nameIsUsed(_ db: Database, _ name: MachineName, userID: UserID, byOtherThan machine: String?)
        throws -> Bool
    {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM machine WHERE user_id = ? AND retired_at IS NULL
                    AND lower(name) = ? AND machine_id IS NOT ?)
                """, arguments: [userID, name.key, machine]) ?? false
    }

    /// Stores `machine`'s profile when it is newer than what that machine sent last; answers
    /// whether it was, and whether its name is not the one this machine sent last.
    @discardableResult
    static func machineProfile(_ db: Database, _ profile: MemberProfile, machine id: MachineID?, now: Int64) throws
        -> (stored: Bool, renamed: Bool)
    {
        let known = try ownMachine(db, userID: profile.userID, machine: id, now: now)
        let renamed = known.sentName != profile.displayName.value
        if let version = known.version, profile.version <= version { return (false, renamed) }
        try db.execute(
            sql: """
                UPDATE machine SET blocks_today = ?, day = ?, streak = ?, version = ?, sent_name = ?,
                    productive_today = ?
                WHERE user_id = ? AND machine_id = ?
                """,
            arguments: [
                profile.blocksToday, profile.day.dayNumber, profile.streak, profile.version, profile.displayName.value,
                profile.productiveToday, profile.userID, id?.value ?? first,
            ])
        return (true, renamed)
    }

    /// The member's today as every reader sees it: the newest day any of their machines reported
    /// and the blocks of every machine on that day added up (`GroupStoreRules.sumOfBlocks`).
    static func memberToday(_ db: Database, userID: UserID) throws -> (day: Int, blocks: Int)? {
        let rows = try Row.fetchAll(
            db, sql: "SELECT day, blocks_today FROM machine WHERE user_id = ?", arguments: [userID]
        ).compactMap { row -> (day: Int, blocks: Int)? in
            guard let day: Int = row.readable("day"), let blocks: Int = row.readable("blocks_today") else { return nil }
            return (day, blocks)
        }
        guard let day = rows.map(\.day).max() else { return nil }
        return (day, GroupStoreRules.sumOfBlocks(rows.filter { $0.day == day }.map(\.blocks)))
    }

    /// Stores one machine's day totals of the member (the highest version per date replacing the
    /// machine's stored one only when newer), then the member's sums for the dates that changed:
    /// their machines' blocks added up, the highest goal and version, written only when they
    /// differ. Answers whether a sum changed.
    static func storeMachineDays(
        _ db: Database, _ totals: [DayTotal], code: GroupCode, userID: UserID, machine: String
    ) throws -> Bool {
        var dates = Set<Int>()
        for total in totals {
            try db.execute(
                sql: """
                    INSERT INTO machine_day_total (code, user_id, date, machine_id, vice_blocks, goal_blocks, version,
                        productive_blocks)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (code, user_id, date, machine_id) DO UPDATE SET
                        vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks,
                        version = excluded.version, productive_blocks = excluded.productive_blocks
                    WHERE excluded.version > machine_day_total.version
                    """,
                arguments: [
                    code.value, userID, total.date.dayNumber, machine, total.viceBlocks, total.goalBlocks,
                    total.version, total.productiveBlocks,
                ])
            if db.changesCount > 0 { dates.insert(total.date.dayNumber) }
        }
        var changed = false
        for date in dates.sorted() {
            try db.execute(
                sql: """
                    INSERT INTO day_total (code, user_id, date, vice_blocks, goal_blocks, version, machines)
                    SELECT code, user_id, date, min(sum(vice_blocks), 1440), max(goal_blocks), max(version), count(*)
                    FROM machine_day_total WHERE code = ? AND user_id = ? AND date = ?
                    GROUP BY code, user_id, date
                    ON CONFLICT (code, user_id, date) DO UPDATE SET
                        vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks,
                        version = excluded.version, machines = excluded.machines
                    WHERE day_total.vice_blocks IS NOT excluded.vice_blocks
                        OR day_total.goal_blocks IS NOT excluded.goal_blocks
                        OR day_total.version IS NOT excluded.version
                    """, arguments: [code.value, userID, date])
            if db.changesCount > 0 { changed = true }
        }
        return changed
    }
}
