import Foundation
import ScreenMatesCore

/// One of a member's machines as a group store keeps it: what it is called, when it was added and
/// last wrote, and what it last said of today (its own blocks, not the member's sum).
///
/// A store keeps each machine's days and profile apart and gives every other reader the member's
/// sum: the blocks of all their machines on a day, counted once (`GroupStoreRules.sumOfBlocks`).
/// Only the member reads their machines.
public struct MemberMachine: Hashable, Sendable {
    /// The machine's id; nil for the machine that versions from before machines write as (the
    /// store calls it `first`): what a member had before, and keeps until a machine of theirs
    /// takes it over (`addMachine(…, adoptingFirst: true)`).
    public var id: MachineID?
    public var name: MachineName
    public var addedAt: Date
    /// The last time it wrote anything (to the minute).
    public var lastSeen: Date
    /// When the member removed it; it writes no more, and what it wrote still counts.
    public var retiredAt: Date?
    /// Whether it took over the member's `first` machine.
    public var adoptedFirst: Bool
    /// Its own blocks on `day`, the day it reported last (nil before its first report).
    public var blocksToday: Int
    public var day: LocalDate?
    /// The version of the profile it sent last (0 before its first).
    public var version: Int64

    public init(
        id: MachineID?, name: MachineName, addedAt: Date, lastSeen: Date, retiredAt: Date? = nil,
        adoptedFirst: Bool = false, blocksToday: Int = 0, day: LocalDate? = nil, version: Int64 = 0
    ) {
        self.id = id
        self.name = name
        self.addedAt = addedAt
        self.lastSeen = lastSeen
        self.retiredAt = retiredAt
        self.adoptedFirst = adoptedFirst
        self.blocksToday = blocksToday
        self.day = day
        self.version = version
    }

    /// Whether it may still write.
    public var isInUse: Bool { retiredAt == nil }

    /// A machine's row as a store keeps it (`first` for the machine of versions from before
    /// machines, instants in milliseconds, days as day numbers), or nil for one that cannot be
    /// right: an id or name of another shape, counts out of bounds, a date no engine keeps. Nothing
    /// a store holds can make a reader trap.
    public static func stored(
        id: String, name: String, addedAt: Int64, lastSeen: Int64, retiredAt: Int64?, adoptedFirst: Bool,
        blocksToday: Int64, day: Int64?, version: Int64
    ) -> MemberMachine? {
        let machineID: MachineID?
        if id == "first" {
            machineID = nil
        } else if let valid = try? MachineID(validating: id) {
            machineID = valid
        } else {
            return nil
        }
        let days =
            Int64(
                GroupStoreRules.storableDates.lowerBound.dayNumber)...Int64(
                GroupStoreRules.storableDates.upperBound.dayNumber)
        guard let name = try? MachineName(validating: name),
            (0...Int64(GroupStoreRules.maximumBlocksPerDay)).contains(blocksToday),
            version >= 0, day.map(days.contains) ?? true
        else { return nil }
        return MemberMachine(
            id: machineID, name: name, addedAt: StoredInstant.date(milliseconds: addedAt),
            lastSeen: StoredInstant.date(milliseconds: lastSeen),
            retiredAt: retiredAt.map { StoredInstant.date(milliseconds: $0) }, adoptedFirst: adoptedFirst,
            blocksToday: Int(blocksToday), day: day.map { LocalDate(dayNumber: Int($0)) }, version: version)
    }
}

/// What adding a machine came to.
public enum MachineAdded: String, Hashable, Sendable {
    /// A new machine of the member's.
    case added
    /// The store knew it already: nothing changed.
    case known
    /// It took over the member's `first` machine, with every day it wrote.
    case adopted
}

/// One of a member's machines' own total for a day in a group (the member's total for the day is
/// the sum of them: `GroupStoreRules.sumOfBlocks`). Only the member reads them.
public struct MachineDayTotal: Hashable, Sendable {
    /// The machine; nil for `first`, the older versions' machine.
    public var machine: MachineID?
    public var date: LocalDate
    public var viceBlocks: Int
    public var goalBlocks: Int
    public var version: Int64

    public init(machine: MachineID?, date: LocalDate, viceBlocks: Int, goalBlocks: Int, version: Int64) {
        self.machine = machine
        self.date = date
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
        self.version = version
    }

    /// A row as a store keeps it, or nil for one that cannot be right (a machine id of another
    /// shape, counts out of bounds, a date no engine keeps).
    public static func stored(machine: String, date: Int64, viceBlocks: Int64, goalBlocks: Int64, version: Int64)
        -> MachineDayTotal?
    {
        let id: MachineID?
        if machine == "first" {
            id = nil
        } else if let valid = try? MachineID(validating: machine) {
            id = valid
        } else {
            return nil
        }
        let days =
            Int64(
                GroupStoreRules.storableDates.lowerBound.dayNumber)...Int64(
                GroupStoreRules.storableDates.upperBound.dayNumber)
        guard days.contains(date), (0...Int64(GroupStoreRules.maximumBlocksPerDay)).contains(viceBlocks),
            (0...Int64(GroupStoreRules.dayGoalRange.upperBound)).contains(goalBlocks), version >= 0
        else { return nil }
        return MachineDayTotal(
            machine: id, date: LocalDate(dayNumber: Int(date)), viceBlocks: Int(viceBlocks),
            goalBlocks: Int(goalBlocks), version: version)
    }
}
