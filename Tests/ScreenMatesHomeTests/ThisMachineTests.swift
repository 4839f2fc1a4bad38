import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore
import Testing

/// The machine a home runs on: drawn once, kept, drawn again on another host.
@Suite struct ThisMachineTests {
    final class Home {
        let directory = NSTemporaryDirectory() + "screenmates-machine-" + UUID().uuidString
        let store: LocalStore

        init() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            store = try LocalStore.open(at: directory + "/local.sqlite")
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test func aHomeDrawsItsMachineOnceAndKeepsIt() throws {
        let home = try Home()
        let first = try ThisMachine.current(store: home.store, host: "machine-id:aaaa", hostName: "ana's laptop")
        #expect(first.drawn && !first.copied)
        #expect(first.machine.name.value == "ana-s-laptop")
        let again = try ThisMachine.current(store: home.store, host: "machine-id:aaaa", hostName: "renamed")
        #expect(!again.drawn)
        #expect(again.machine == first.machine, "the same id and name, whatever the host is called now")
    }

    @Test func aHomeCopiedToAnotherHostDrawsAgainThere() throws {
        let home = try Home()
        let laptop = try ThisMachine.current(store: home.store, host: "machine-id:aaaa", hostName: "laptop")
        let desktop = try ThisMachine.current(store: home.store, host: "machine-id:bbbb", hostName: "desktop")
        #expect(desktop.drawn && desktop.copied)
        #expect(desktop.machine.id != laptop.machine.id)
        #expect(desktop.machine.name.value == "desktop")
        #expect(try home.store.thisMachine() == desktop.machine)
    }

    @Test func aMachineRowThatCannotBeRightIsDrawnAgain() throws {
        let home = try Home()
        let drawn = try ThisMachine.current(store: home.store, host: "h", hostName: "laptop")
        let queue = try DatabaseQueue(path: home.directory + "/local.sqlite")
        try queue.write { db in try db.execute(sql: "UPDATE this_machine SET machine_id = 'first\u{1B}[31m'") }
        #expect(try home.store.thisMachine() == nil)
        let again = try ThisMachine.current(store: home.store, host: "h", hostName: "laptop")
        #expect(again.drawn && !again.copied)
        #expect(again.machine.id != drawn.machine.id)
    }

    @Test func theHostIsKnownByItsMachineIDElseItsName() throws {
        let directory = NSTemporaryDirectory() + "screenmates-machine-id-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "0123456789abcdef0123456789abcdef\n".write(
            toFile: directory + "/machine-id", atomically: true, encoding: .utf8)
        #expect(
            ThisMachine.hostKey(machineIDFile: directory + "/machine-id")
                == "machine-id:0123456789abcdef0123456789abcdef")
        try "\n".write(toFile: directory + "/empty", atomically: true, encoding: .utf8)
        #expect(ThisMachine.hostKey(machineIDFile: directory + "/empty") == "host:" + ThisMachine.hostName())
        #expect(ThisMachine.hostKey(machineIDFile: directory + "/none") == "host:" + ThisMachine.hostName())
        #expect(!ThisMachine.hostName().isEmpty)
    }
}
