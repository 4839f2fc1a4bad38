import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// Faults under a running monitor: a read-only database, a file-size limit. The monitor says
/// what is wrong on standard error, keeps what it could not write, and writes it once the fault
/// is gone; nothing committed is lost.
@Suite(.serialized) struct StoreFaultTests {
    let binary = Binary.path

    /// Runs commands as an unprivileged user when the tests run as root, for whom file
    /// permissions do not apply.
    struct Owner {
        let prefix: [String]
        let home: Binary.Home

        init(home: Binary.Home) throws {
            self.home = home
            try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
            if getuid() == 0 {
                chown(home.path, 65534, 65534)
                prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            } else {
                prefix = []
            }
        }

        func spawn(_ arguments: [String]) async throws -> SpawnedProcess {
            let all = prefix + [Binary.pathForEveryone] + arguments
            return try await SpawnedProcess(all[0], Array(all.dropFirst()))
        }

        func run(_ arguments: [String]) async throws -> SpawnedProcess {
            let process = try await spawn(arguments)
            await process.wait()
            return process
        }
    }

    /// Waits (without holding a thread) until `condition` holds; false if it never does.
    private func waitUntil(_ timeout: TimeInterval = 60, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    /// `status --json` without the moment it was asked.
    private func figures(_ status: SpawnedProcess) -> [String] {
        status.lines.filter { !$0.contains("\"now\"") }
    }

    @Test func aReadOnlyDatabaseGivesAClearErrorAndThePendingEventsGoThroughAfterwards() async throws {
        let home = Binary.Home()
        let owner = try Owner(home: home)
        let data = home.path + "/data"
        #expect(try await owner.run(["setup", "--home", data, "--name", "ana"]).exitStatus == 0)
        let first = try await owner.run(["monitor", "--home", data, "--rate", "max", "--count", "40", "--seed", "1"])
        #expect(first.exitStatus == 0, "\(first.standardError)")
        let before = try await owner.run(["status", "--home", data, "--json"])
        #expect(before.exitStatus == 0, "\(before.standardError)")

        chmod(data + "/local.sqlite", 0o400)
        let monitor = try await owner.spawn(["monitor", "--home", data, "--rate", "50", "--count", "30", "--seed", "2"])
        #expect(try await waitUntil { monitor.standardError.contains("Cannot write") }, "\(monitor.standardError)")
        #expect(monitor.standardError.contains("local.sqlite"))
        #expect(monitor.lines.isEmpty, "nothing may be acknowledged while nothing can be written")
        // The numbers can still be read.
        let during = try await owner.run(["status", "--home", data, "--json"])
        #expect(during.exitStatus == 0, "\(during.standardError)")
        #expect(during.lines.joined().contains("\"eventsApplied\" : 40"), "\(during.lines.joined())")
        // And they are the numbers of before: nothing was half-written or lost. (Unless the day
        // ended in between, which moves every figure of today.)
        let dayOf = { (status: SpawnedProcess) in status.lines.first { $0.contains("\"date\"") } }
        if dayOf(before) == dayOf(during) {
            #expect(figures(during) == figures(before), "before:\n\(before.lines.joined(separator: "\n"))")
        }

        chmod(data + "/local.sqlite", 0o600)
        #expect(await monitor.wait(timeout: 60) == 0, "\(monitor.standardError)")
        #expect(monitor.standardError.contains("writing again"))
        let printed = Set(monitor.lines.compactMap(UUID.init(uuidString:)))
        #expect(printed.count == 30)
        let stored = Set(try LocalStore.open(at: data + "/local.sqlite").allEventIDs())
        #expect(stored.count == 70)
        #expect(printed.isSubset(of: stored))
    }

    @Test func aFileSizeLimitGivesAClearErrorAndCatchesUpOnceLifted() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        // A 200 KiB (soft) limit on files this process writes, and SIGXFSZ ignored: writes fail
        // with EFBIG instead of killing the process. Lifting a soft limit needs no privilege.
        let monitor = try await SpawnedProcess(
            binary, ["monitor", "--home", home.path, "--rate", "max", "--count", "6000", "--seed", "3"],
            shell: "ulimit -S -f 200; trap '' XFSZ; exec \"$0\" \"$@\"")
        #expect(try await waitUntil { monitor.standardError.contains("full") }, "\(monitor.standardError)")
        let stuckAt = monitor.lines.count
        #expect(stuckAt < 6000)
        try await Task.sleep(for: .milliseconds(500))
        #expect(monitor.lines.count == stuckAt, "events were acknowledged while the disk was full")
        let lifted = try await Command.run(
            "/usr/bin/prlimit", ["--pid", "\(monitor.pid)", "--fsize=unlimited:unlimited"])
        #expect(lifted.status == 0, "\(lifted.stderr)")
        #expect(await monitor.wait(timeout: 120) == 0, "\(monitor.standardError)")
        #expect(monitor.standardError.contains("writing again"))
        let printed = Set(monitor.lines.compactMap(UUID.init(uuidString:)))
        let store = try LocalStore.open(at: home.path + "/local.sqlite")
        #expect(printed.count == 6000)
        #expect(Set(try store.allEventIDs()) == printed)
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test func aDatabaseLockedForTooLongIsReportedAndTheEventsGoThroughAfterwards() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["SCREENMATES_BUSY_TIMEOUT"] = "0.3"
        // Ten seconds of events: the lock below must land while the monitor still writes, also
        // when a loaded machine takes a while to get there (two seconds' worth once ran out first).
        let monitor = try await SpawnedProcess(
            binary, ["monitor", "--home", home.path, "--rate", "100", "--count", "1000", "--seed", "4"],
            environment: environment)
        #expect(try await waitUntil { monitor.lines.count >= 20 })
        // Another program takes the write lock and keeps it.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        configuration.busyMode = .timeout(5)  // The monitor may be mid-commit right now.
        let holder = try DatabaseQueue(path: home.path + "/local.sqlite", configuration: configuration)
        try await holder.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        #expect(try await waitUntil { monitor.standardError.contains("locked") }, "\(monitor.standardError)")
        let stuckAt = monitor.lines.count
        try await Task.sleep(for: .milliseconds(500))
        #expect(monitor.lines.count == stuckAt, "events were acknowledged while the database was locked")
        try await holder.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
        #expect(await monitor.wait(timeout: 60) == 0, "\(monitor.standardError)")
        #expect(monitor.standardError.contains("writing again"))
        #expect(Set(monitor.lines).count == 1000)
        #expect(try LocalStore.open(at: home.path + "/local.sqlite").eventCount() == 1000)
    }
}
