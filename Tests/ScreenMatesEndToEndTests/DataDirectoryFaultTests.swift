import Foundation
import Glibc
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// Faults of the data directory itself, as a user meets them, on a file system of the test's
/// own (a small tmpfs): the disk fills up under a running monitor and an open dashboard, and
/// the directory is on a file system mounted read-only. Both say what is wrong, nothing
/// committed is lost, no event is skipped, and both carry on once the fault is gone.
///
/// Mounting needs privileges (root with CAP_SYS_ADMIN, as in this project's CI container);
/// where there are none, the tests report themselves skipped with the reason.
@Suite(.serialized) struct DataDirectoryFaultTests {
    /// How long anything awaited may take before the test fails: generous, since the machine
    /// may be busy; nothing here depends on how fast it is.
    static let deadline: Duration = .seconds(90)

    @Test func aFullDiskIsReportedByTheMonitorAndTheDashboardAndNothingCommittedIsLost() async throws {
        let scratch = try FaultScratch()
        let mount = try await FaultMount.tmpfs(in: scratch, megabytes: 16)
        defer { mount.unmount() }
        let home = mount.path + "/home"
        try await scratch.expectSuccess(["setup", "--home", home, "--name", "ana"])

        let monitor = try await FaultMonitor(["monitor", "--home", home, "--rate", "50", "--seed", "11"])
        let dashboard = try await FaultPane(["dashboard", "--home", home])
        #expect(await eventually { monitor.ids.count >= 20 }, "the monitor writes: \(monitor.stderr)")
        try await dashboard.waitFor("blocks on the Today box") { FaultPane.blocks(in: $0) != nil }

        // The disk fills up (another program's file), not a file-size limit.
        let filler = mount.path + "/filler"
        defer { unlink(filler) }
        #expect(try fill(filler) > 0)
        #expect(mount.freeBytes < 64 * 1024, "the disk is full")

        // The monitor says what is wrong and what to do, and goes on running.
        #expect(await eventually { monitor.stderr.contains("is full") }, "\(monitor.stderr)")
        #expect(monitor.stderr.contains("The disk holding \(home)/local.sqlite is full"), "\(monitor.stderr)")
        #expect(monitor.stderr.contains("Free some space"))
        // The dashboard still shows the numbers, and says the disk is full.
        let full = try await dashboard.waitFor("the disk-full warning") { $0.contains("disk full") }
        let blocksWhileFull = FaultPane.blocks(in: full)
        #expect(blocksWhileFull != nil, "the numbers stay on screen:\n\(full)")
        #expect(monitor.isRunning, "the monitor must not give up: \(monitor.stderr)")
        let printedWhileFull = monitor.ids.count

        // Space comes back: the monitor catches up, the dashboard's numbers move, the warning goes.
        unlink(filler)
        #expect(
            await eventually { monitor.ids.count >= printedWhileFull + 100 },
            "the monitor catches up: \(monitor.ids.count) ids, \(monitor.stderr)")
        #expect(monitor.stderrLines.last?.contains("writing again") == true, "\(monitor.stderr)")
        try await dashboard.waitFor("the warning gone and the numbers moving") { screen in
            !screen.contains("disk full") && FaultPane.blocks(in: screen) != blocksWhileFull
        }

        #expect(await monitor.stop() == 143, "the monitor ends on SIGTERM as it always does: \(monitor.stderr)")
        try await dashboard.quit()
        try await expectEveryEventKept(home: home, printed: monitor.ids, seed: 11, alreadyStored: [], scratch: scratch)
    }

    @Test func aReadOnlyDataDirectoryIsReportedAndTheEventsWaitUntilItIsWritable() async throws {
        let scratch = try FaultScratch()
        let mount = try await FaultMount.tmpfs(in: scratch, megabytes: 16)
        defer { mount.unmount() }
        let home = mount.path + "/home"
        try await scratch.expectSuccess(["setup", "--home", home, "--name", "ana"])
        let first = try await scratch.expectSuccess([
            "monitor", "--home", home, "--rate", "max", "--count", "40", "--seed", "21",
        ])
        let firstIDs = Set(first.stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) })
        #expect(firstIDs.count == 40)

        // The whole directory becomes read-only (nothing has it open now).
        try await mount.remount(readOnly: true)
        let probe = Glibc.open(home + "/probe", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(probe < 0 && errno == EROFS, "the condition is real: nothing can be created in the home")
        if probe >= 0 { close(probe) }

        // The dashboard opens, shows what it can read and says why nothing new is saved.
        let dashboard = try await FaultPane(["dashboard", "--home", home])
        let readOnly = try await dashboard.waitFor("the numbers and the read-only warning") { screen in
            guard screen.contains("read-only"), let shown = FaultPane.blocks(in: screen) else { return false }
            return try await shown == scratch.status(home: home).blocksUsed
        }
        let blocksWhileReadOnly = FaultPane.blocks(in: readOnly)
        #expect(try await scratch.status(home: home).eventsApplied == 40, "status reads a read-only home too")

        // A monitor says what is wrong, keeps its events and goes on running.
        let monitor = try await FaultMonitor(["monitor", "--home", home, "--rate", "50", "--seed", "22"])
        #expect(await eventually { monitor.stderr.contains("read-only") }, "\(monitor.stderr)")
        #expect(monitor.stderr.contains("Cannot write to \(home)/local.sqlite"), "\(monitor.stderr)")
        #expect(monitor.ids.isEmpty, "nothing may be acknowledged while nothing can be written")
        #expect(monitor.isRunning, "the monitor must not give up: \(monitor.stderr)")

        // Writable again: the monitor writes what waited, the dashboard follows, the warning goes.
        try await mount.remount(readOnly: false)
        #expect(await eventually { monitor.ids.count >= 100 }, "\(monitor.ids.count) ids, \(monitor.stderr)")
        #expect(monitor.stderrLines.last?.contains("writing again") == true, "\(monitor.stderr)")
        try await dashboard.waitFor("the warning gone and the numbers moving") { screen in
            !screen.contains("read-only") && FaultPane.blocks(in: screen) != blocksWhileReadOnly
        }
        // The dashboard writes again too: the notices it could not record come (over the limit).
        try await dashboard.waitFor("a notice recorded") { $0.contains("Over today's limit") }

        #expect(await monitor.stop() == 143, "\(monitor.stderr)")
        try await dashboard.quit()
        try await expectEveryEventKept(
            home: home, printed: monitor.ids, seed: 22, alreadyStored: firstIDs, scratch: scratch)
    }

    /// Every id the monitor printed is stored, nothing is stored that it did not print (it was
    /// stopped cleanly), and no event was skipped: they are the first events its seed makes, as
    /// a monitor with the same seed in another home makes them.
    private func expectEveryEventKept(
        home: String, printed: [UUID], seed: Int, alreadyStored: Set<UUID>, scratch: FaultScratch
    ) async throws {
        let stored = try Set(LocalStore.open(at: home + "/local.sqlite").allEventIDs())
        let printedSet = Set(printed)
        #expect(printedSet.count == printed.count, "each id is printed once")
        #expect(printedSet.isSubset(of: stored), "\(printedSet.subtracting(stored).count) printed ids are not stored")
        #expect(stored.subtracting(alreadyStored) == printedSet, "stored but never acknowledged")
        guard !printed.isEmpty else {
            Issue.record("the monitor acknowledged no event")
            return
        }
        _ = try await scratch.expectSuccess(["setup", "--home", scratch.path + "/again", "--name", "again"])
        let again = try await scratch.expectSuccess([
            "monitor", "--home", scratch.path + "/again", "--rate", "max", "--count", "\(printed.count)",
            "--seed", "\(seed)",
        ])
        let expected = Set(again.stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) })
        #expect(expected.count == printed.count)
        #expect(printedSet == expected, "events were skipped: not the seed's first \(printed.count)")
    }

    /// Writes zeros to `path` until the file system has no room left; the bytes written.
    private func fill(_ path: String) throws -> Int {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while total < 1 << 30 {
            let count = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                total += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && errno == ENOSPC {
                return total
            } else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        Issue.record("wrote 1 GiB without filling the disk")
        return total
    }
}

// MARK: - Helpers of this file (on the shared harness: Binary, Command, SpawnedProcess, Tmux)

/// Polls `condition` until it holds or the deadline passes, without blocking a thread.
private func eventually(
    _ deadline: Duration = DataDirectoryFaultTests.deadline, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let end = ContinuousClock.now + deadline
    while ContinuousClock.now < end {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// A directory for one test's files outside the mount (another home, the mount point),
/// removed at the end.
private final class FaultScratch: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "screenmates-faults-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Runs `screenmates` to its end; records an issue unless it succeeds.
    @discardableResult
    func expectSuccess(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let run = try await Binary.run(arguments)
        #expect(
            run.status == 0, "screenmates \(arguments.joined(separator: " ")): \(run.stderr)",
            sourceLocation: sourceLocation)
        return run
    }

    /// What `status --json` says of the home.
    func status(home: String) async throws -> (blocksUsed: Int, eventsApplied: Int) {
        let run = try await Binary.run(["status", "--home", home, "--json"])
        guard run.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            let blocks = object["blocksUsed"] as? Int, let events = object["eventsApplied"] as? Int
        else {
            throw FaultError("status failed (\(run.status)): \(run.stderr)")
        }
        return (blocks, events)
    }
}

private struct FaultError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A `screenmates monitor` running beside the test (killed at the end whatever happens): the
/// event ids it printed (each once committed) and what it said on standard error.
private struct FaultMonitor {
    let process: SpawnedProcess

    init(_ arguments: [String]) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process = try await SpawnedProcess(Binary.path, arguments, environment: environment)
    }

    var ids: [UUID] { process.lines.compactMap { UUID(uuidString: $0) } }
    var stderr: String { process.standardError }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    var isRunning: Bool { !process.hasEnded }

    /// Asks it to stop (SIGTERM) and waits; its exit status.
    func stop() async -> Int32? {
        process.kill(SIGTERM)
        return await process.wait(timeout: 30)
    }
}

/// A dashboard as a 120 × 40 pane's own process in a private tmux server.
private struct FaultPane {
    let tmux: Tmux

    init(_ arguments: [String]) async throws {
        tmux = try await Tmux(running: [Binary.path] + arguments)
    }

    /// Waits until the screen satisfies `condition`; a timeout fails the test, showing the screen.
    @discardableResult
    func waitFor(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) async throws -> Bool
    ) async throws -> String {
        var last = ""
        let shown = try await eventually {
            last = try await tmux.screen()
            return try await condition(last)
        }
        if !shown { Issue.record("the dashboard never showed \(what):\n\(last)", sourceLocation: sourceLocation) }
        return last
    }

    /// Quits with `q` and waits for the program to end.
    func quit() async throws {
        try await tmux.keys("q")
        // tmux marks the pane dead when its terminal closes and learns the status a moment later.
        let state = try await tmux.waitForPane(timeout: 30) { $0.dead && $0.exitStatus != nil }
        #expect(state.dead && state.exitStatus == 0, "the dashboard did not quit on q: \(state)")
    }

    /// The blocks used today, from the Today box ("5 / 8 blocks").
    static func blocks(in screen: String) -> Int? {
        guard let range = screen.range(of: #"[0-9]+ / [0-9]+ blocks"#, options: .regularExpression) else {
            return nil
        }
        return Int(screen[range].prefix { $0.isNumber })
    }
}

/// A tmpfs of the test's own, mounted in the scratch directory (which it keeps while mounted).
private final class FaultMount {
    let path: String
    private let scratch: FaultScratch

    private init(path: String, scratch: FaultScratch) {
        self.path = path
        self.scratch = scratch
    }

    /// Mounts a tmpfs of `megabytes`, or skips the test (with the reason) where this process
    /// may not mount.
    static func tmpfs(in scratch: FaultScratch, megabytes: Int) async throws -> FaultMount {
        let path = scratch.path + "/mnt"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try await Command.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", path])
        guard mounted.status == 0 else {
            let why = mounted.stderr.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            try Test.cancel(
                Comment(
                    rawValue: "Skipped: a file system of the test's own is needed, and mounting a tmpfs is not "
                        + "allowed here (uid \(getuid()): \(why))."))
        }
        return FaultMount(path: path, scratch: scratch)
    }

    /// Remounts it read-only or read-write. The kernel refuses read-only while a file on it is
    /// open for writing: that is tried again until the processes that had one are gone.
    func remount(readOnly: Bool) async throws {
        var last = Command.Result(status: 0, stdout: "", stderr: "")
        let done = try await eventually(.seconds(30)) {
            last = try await Command.run("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", path])
            return last.status == 0
        }
        if !done { throw FaultError("remount \(readOnly ? "ro" : "rw") failed: \(last.stderr)") }
    }

    /// Free bytes on it.
    var freeBytes: UInt64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    /// Unmounts it (lazily when something still has it open: a killed child not yet gone), as
    /// `umount` and `umount --lazy` would, without a program to wait for.
    func unmount() {
        if umount2(path, 0) != 0 { _ = umount2(path, Int32(MNT_DETACH)) }
    }
}
