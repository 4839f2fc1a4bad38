import Foundation
import ScreenMatesCore

// A member's machines and their days as a store holds them, checked as every other row is
// (`StoredGroupRow`): a row that cannot be right is left out and named.

extension RowCheck {
    /// A machine's id: its own, or nil for `first`, the older versions' machine.
    func machineID(_ text: String, column: String = "machine_id") throws(LeftOutRow) -> MachineID? {
        if text == "first" { return nil }
        guard let id = try? MachineID(validating: text) else {
            throw fail("\(column) \(LeftOutRow.quoted(text)) is not a machine's id")
        }
        return id
    }
}

/// One of the reading member's machines.
public struct StoredMemberMachine: StoredGroupRow {
    public var machineID: String
    public var name: String
    public var addedAt: Int64
    public var lastSeen: Int64
    public var retiredAt: Int64?
    public var adoptedFirst: Bool
    public var blocksToday: Int64
    public var day: Int64?
    public var version: Int64
    public var productiveToday: Int64?

    public init(
        machineID: String, name: String, addedAt: Int64, lastSeen: Int64, retiredAt: Int64?, adoptedFirst: Bool,
        blocksToday: Int64, day: Int64?, version: Int64, productiveToday: Int64? = nil
    ) {
        self.productiveToday = productiveToday
        self.machineID = machineID
        self.name = name
        self.addedAt = addedAt
        self.lastSeen = lastSeen
        self.retiredAt = retiredAt
        self.adoptedFirst = adoptedFirst
        self.blocksToday = blocksToday
        self.day = day
        self.version = version
    }

    public func checked() throws(LeftOutRow) -> MemberMachine {
        let check = RowCheck(kind: .machine, key: machineID)
        let name: MachineName
        do {
            name = try MachineName(validating: self.name)
        } catch {
            throw check.fail("name \(LeftOutRow.quoted(self.name)): \(error.message)")
        }
        return MemberMachine(
            id: try check.machineID(machineID), name: name, addedAt: try check.instant(addedAt, "added_at"),
            lastSeen: try check.instant(lastSeen, "last_seen"),
            retiredAt: try check.optionalInstant(retiredAt, "retired_at"), adoptedFirst: adoptedFirst,
            blocksToday: try check.count(
                blocksToday, "blocks_today", in: GroupStoreRules.blocksPerDayRange, what: "a day holds"),
            day: try day.map { day throws(LeftOutRow) in try check.date(day, "day") }, version: version,
            productiveToday: try productiveToday.map { blocks throws(LeftOutRow) in
                try check.count(blocks, "productive_today", in: GroupStoreRules.blocksPerDayRange, what: "a day holds")
            })
    }
}

/// One of the reading member's machines' own totals for a day.
public struct StoredMachineDayTotal: StoredGroupRow {
    public var machineID: String
    public var date: Int64
    public var viceBlocks: Int64
    public var goalBlocks: Int64
    public var version: Int64
    public var productiveBlocks: Int64?

    public init(
        machineID: String, date: Int64, viceBlocks: Int64, goalBlocks: Int64, version: Int64,
        productiveBlocks: Int64? = nil
    ) {
        self.productiveBlocks = productiveBlocks
        self.machineID = machineID
        self.date = date
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
        self.version = version
    }

    public func checked() throws(LeftOutRow) -> MachineDayTotal {
        let check = RowCheck(kind: .machineDayTotal, key: "\(machineID) \(date)")
        return MachineDayTotal(
            machine: try check.machineID(machineID), date: try check.date(date, "date"),
            viceBlocks: try check.count(
                viceBlocks, "vice_blocks", in: GroupStoreRules.blocksPerDayRange, what: "a day holds"),
            goalBlocks: try check.count(goalBlocks, "goal_blocks", in: GroupStoreRules.dayGoalRange, what: "a goal is"),
            version: version,
            productiveBlocks: try productiveBlocks.map { blocks throws(LeftOutRow) in
                try check.count(blocks, "productive_blocks", in: GroupStoreRules.blocksPerDayRange, what: "a day holds")
            })
    }
}
