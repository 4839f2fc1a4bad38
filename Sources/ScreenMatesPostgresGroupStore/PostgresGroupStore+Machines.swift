import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

/// A member's machines on a server: each call made by the member themselves (their id and secret),
/// so no one adds, renames, removes or reads another's.
extension PostgresGroupStore {
    /// The id a machine has on the server: its own, or `first` (what versions from before machines
    /// write as).
    static func id(_ machine: MachineID?) -> String { machine?.value ?? "first" }

    @discardableResult
    public func addMachine(_ id: MachineID, name: MachineName, userID: UserID, adoptingFirst: Bool)
        async throws(GroupStoreError) -> MachineAdded
    {
        let me = try caller(userID)
        let rows = try await perform(OperationContext(userID: userID)) { client in
            try await client.writeRows(
                """
                SELECT screenmates.add_machine(\(me.id), \(me.secret), \(id.value), \(name.value), \(adoptingFirst))
                """
            )
        }
        return try decode("adding a machine") {
            guard let row = rows.first, let added = MachineAdded(rawValue: try row.decode(String.self)) else {
                throw UnreadableValue(what: "no answer to adding a machine")
            }
            return added
        }
    }

    public func machines(userID: UserID) async throws(GroupStoreError) -> [MemberMachine] {
        let me = try caller(userID)
        let rows = try await perform(OperationContext(userID: userID)) { client in
            try await client.rows(
                """
                SELECT machine_id, name, added_at, last_seen, retired_at, adopted_first, blocks_today, day, version,
                    productive_today
                FROM screenmates.my_machines(\(me.id), \(me.secret))
                """
            )
        }
        var filter = GroupRowFilter()
        let machines = try decode("the member's machines") {
            try rows.compactMap { row in
                let (id, name, added, seen, retired, adopted, blocks, day, version, productive) = try row.decode(
                    (String, String, Int64, Int64, Int64?, Bool, Int64, Int64?, Int64, Int64?).self)
                return filter.keep(
                    StoredMemberMachine(
                        machineID: id, name: name, addedAt: added, lastSeen: seen, retiredAt: retired,
                        adoptedFirst: adopted, blocksToday: blocks, day: day, version: version,
                        productiveToday: productive))
            }
        }
        filter.report()
        return machines
    }

    public func machineDayTotals(code: GroupCode, userID: UserID, days: ClosedRange<LocalDate>)
        async throws(GroupStoreError) -> [MachineDayTotal]
    {
        let first = Int64(GroupStoreRules.clampedDayNumber(days.lowerBound))
        let last = Int64(GroupStoreRules.clampedDayNumber(days.upperBound))
        let me = try caller(userID)
        let rows = try await perform(OperationContext(code: code, userID: userID)) { client in
            try await client.rows(
                """
                SELECT known, machine_id, date, vice_blocks, goal_blocks, version, productive_blocks
                FROM screenmates.my_machine_days(\(me.id), \(me.secret), \(code.value), \(first), \(last))
                """
            )
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        var filter = GroupRowFilter()
        let totals = try decode("the machines' day totals") {
            try rows.compactMap { row in
                let (_, machine, date, vice, goal, version, productive) = try row.decode(
                    (Bool, String, Int64, Int64, Int64, Int64, Int64?).self)
                return filter.keep(
                    StoredMachineDayTotal(
                        machineID: machine, date: date, viceBlocks: vice, goalBlocks: goal, version: version,
                        productiveBlocks: productive))
            }
        }
        filter.report()
        return totals
    }

    public func renameMachine(_ id: MachineID?, to name: MachineName, userID: UserID) async throws(GroupStoreError) {
        let me = try caller(userID)
        _ = try await perform(OperationContext(userID: userID)) { client in
            try await client.writeRows(
                "SELECT screenmates.rename_machine(\(me.id), \(me.secret), \(Self.id(id)), \(name.value))")
        }
    }

    @discardableResult
    public func retireMachine(_ id: MachineID?, userID: UserID) async throws(GroupStoreError) -> Bool {
        let me = try caller(userID)
        let rows = try await perform(OperationContext(userID: userID)) { client in
            try await client.writeRows("SELECT screenmates.retire_machine(\(me.id), \(me.secret), \(Self.id(id)))")
        }
        return try decode("removing a machine") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to removing a machine") }
            return try row.decode(Bool.self)
        }
    }
}
