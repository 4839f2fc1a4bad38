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
    /// Its own productive blocks on `day`, when it said them (versions before the sixteenth
    /// schema level do not).
    public var productiveToday: Int?

    public init(
        id: MachineID?, name: MachineName, addedAt: Date, lastSeen: Date, retiredAt: Date? = nil,
        adoptedFirst: Bool = false, blocksToday: Int = 0, day: LocalDate? = nil, version: Int64 = 0,
        productiveToday: Int? = nil
    ) {
        self.productiveToday = productiveToday
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
    /// Its productive blocks that day, when it said them.
    public var productiveBlocks: Int?

    public init(
        machine: MachineID?, date: LocalDate, viceBlocks: Int, goalBlocks: Int, version: Int64,
        productiveBlocks: Int? = nil
    ) {
        self.productiveBlocks = productiveBlocks
        self.machine = machine
        self.date = date
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
        self.version = version
    }
}
