import Foundation
import GRDB
import ScreenMatesCore
import Testing

@testable import ScreenMatesStore

/// The machine a home drew, as the local store keeps it.
@Suite struct LocalStoreMachineTests {
    static let machine = StoredMachine(
        id: try! MachineID(validating: String(repeating: "ab", count: 16)),
        name: try! MachineName(validating: "laptop"),
        host: "machine-id:0123", drawnAt: Date(timeIntervalSince1970: 1_795_000_000))

    @Test func aHomeKeepsOneMachine() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        #expect(try store.thisMachine() == nil)
        try store.setThisMachine(Self.machine)
        #expect(try store.thisMachine() == Self.machine)
        var other = Self.machine
        other.name = try MachineName(validating: "desktop")
        try store.setThisMachine(other)
        #expect(try store.thisMachine() == other, "one row: the newest drawn")
    }

    /// A home that draws a new machine (added again after a removal, or copied to another host)
    /// keeps the one it was: what that sent up to the day the home is on is in its own history,
    /// never another machine's; what it sends after (the copy left behind) is.
    @Test func theMachineAHomeWasBeforeIsItsOwnUpToTheDayItLeftIt() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory, start: "2026-11-21")
        _ = try store.rollOver(
            clockDay: LocalDate(iso8601: "2026-11-23")!, calendar: DayCalendar(timeZone: .gmt),
            now: Fixtures.instant("2026-11-23T08:00"))
        try store.setGroup(GroupMembership(code: try GroupCode(validating: "K7Q2XM"), dailyGoalBlocks: 8))
        try store.setThisMachine(Self.machine)
        var again = Self.machine
        again.id = try MachineID(validating: String(repeating: "cd", count: 16))
        let version = try store.otherMachinesVersion()
        try store.setThisMachine(again)
        #expect(try store.otherMachinesVersion() > version, "the figures count the others again")
        let old = Self.machine.id.value
        try store.keepOtherMachineDays(
            ["2026-11-22", "2026-11-23", "2026-11-24"].map {
                OtherMachineDay(machine: old, date: LocalDate(iso8601: $0)!, viceBlocks: 5, goalBlocks: 8)
            } + [
                OtherMachineDay(machine: "desk", date: LocalDate(iso8601: "2026-11-22")!, viceBlocks: 1, goalBlocks: 8)
            ],
            replacing: nil)
        let totals = try store.otherMachinesTotals()
        #expect(totals[LocalDate(iso8601: "2026-11-22")!]?.viceBlocks == 1, "the desk's alone")
        #expect(totals[LocalDate(iso8601: "2026-11-23")!] == nil, "the day the home was on when it left it")
        #expect(totals[LocalDate(iso8601: "2026-11-24")!]?.viceBlocks == 5)
    }

    /// A day a version before v15 restored from a group (vice blocks, no time spent) is the
    /// member's sum, and is marked so when the home upgrades; a day of the home's own stays its own.
    @Test func aDayRestoredBeforeMachinesIsMarkedRestored() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Fixtures.store(in: directory, start: "2026-11-21")
            _ = try store.rollOver(
                clockDay: LocalDate(iso8601: "2026-11-23")!, calendar: DayCalendar(timeZone: .gmt),
                now: Fixtures.instant("2026-11-23T08:00"))
        }
        // The database as v15 left it, with a day restored as own and one of its own.
        let pool = try DatabasePool(path: directory.databasePath)
        try pool.write { db in
            try db.execute(sql: "DROP TABLE former_machine; DROP TABLE other_machine_day")
            try db.execute(sql: "ALTER TABLE profile DROP COLUMN other_machines_version")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v16:%'")
            try db.execute(
                sql: """
                    UPDATE day_history SET vice_blocks = 6, spent_seconds = 0, synced = 1, origin = 'own'
                    WHERE date = '2026-11-21';
                    UPDATE day_history SET vice_blocks = 2, spent_seconds = 1800, synced = 1, origin = 'own'
                    WHERE date = '2026-11-22'
                    """)
        }
        try pool.close()
        let store = try Fixtures.store(in: directory, start: "2026-11-21")
        let origins = try DatabaseQueue(path: directory.databasePath).read { db in
            try Row.fetchAll(db, sql: "SELECT date, origin FROM day_history ORDER BY date").map {
                "\($0["date"] as String) \($0["origin"] as String)"
            }
        }
        #expect(origins == ["2026-11-21 restored", "2026-11-22 own"])
        #expect(try store.unsyncedDays().isEmpty)
    }

    @Test func aRecoveredHomeIsStillTheSameMachine() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try Fixtures.store(in: directory)
            try store.setThisMachine(Self.machine)
        }
        _ = try StoreRecovery.recover(
            at: directory.databasePath, clock: ManualClock(Date(timeIntervalSince1970: 1_795_000_000)),
            timeZone: Fixtures.utc)
        #expect(try LocalStore.open(at: directory.databasePath).thisMachine() == Self.machine)
    }
}
