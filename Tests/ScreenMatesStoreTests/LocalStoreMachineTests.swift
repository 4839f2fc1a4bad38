import Foundation
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
