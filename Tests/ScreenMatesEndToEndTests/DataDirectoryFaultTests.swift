import Foundation
import Glibc
import ScreenMatesStore
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

        let monitor = try FaultChild(scratch, "monitor", ["monitor", "--home", home, "--rate", "50", "--seed", "11"])
        defer { monitor.kill() }
        let dashboard = try await FaultPane.start(scratch, ["dashboard", "--home", home])
        defer { dashboard.close() }
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
        let dashboard = try await FaultPane.start(scratch, ["dashboard", "--home", home])
        defer { dashboard.close() }
        let readOnly = try await dashboard.waitFor("the numbers and the read-only warning") { screen in
            guard screen.contains("read-only"), let shown = FaultPane.blocks(in: screen) else { return false }
            return try await shown == scratch.status(home: home).blocksUsed
        }
        let blocksWhileReadOnly = FaultPane.blocks(in: readOnly)
        #expect(try await scratch.status(home: home).eventsApplied == 40, "status reads a read-only home too")

        // A monitor says what is wrong, keeps its events and goes on running.
        let monitor = try FaultChild(scratch, "monitor", ["monitor", "--home", home, "--rate", "50", "--seed", "22"])
        defer { monitor.kill() }
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

// MARK: - Helpers of this file

/// Polls `condition` until it holds or the deadline passes, without blocking a thread.
private func eventually(
    _ deadline: Duration = DataDirectoryFaultTests.deadline, _ condition: () throws -> Bool
) async rethrows -> Bool {
    let end = ContinuousClock.now + deadline
    while ContinuousClock.now < end {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try condition()
}

/// A directory for one test's files outside the mount (children's output, another home),
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
        -> FaultRun
    {
        let run = try await FaultRun.run(Binary.path, arguments, scratch: self)
        #expect(
            run.status == 0, "screenmates \(arguments.joined(separator: " ")): \(run.stderr)",
            sourceLocation: sourceLocation)
        return run
    }

    /// What `status --json` says of the home.
    func status(home: String) async throws -> (blocksUsed: Int, eventsApplied: Int) {
        let run = try await FaultRun.run(Binary.path, ["status", "--home", home, "--json"], scratch: self)
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

/// A program run to its end under `timeout`, its output in files.
private struct FaultRun {
    var status: Int32
    var stdout: String
    var stderr: String

    static let limitSeconds = 60

    /// Waits for it without holding a thread.
    static func run(_ program: String, _ arguments: [String], scratch: FaultScratch) async throws -> FaultRun {
        let (pid, out, err) = try start(program, arguments, scratch: scratch)
        var status: Int32?
        while status == nil {
            status = reap(pid, blocking: false)
            if status == nil { try? await Task.sleep(for: .milliseconds(10)) }
        }
        return finish(program, arguments, status: status!, out: out, err: err)
    }

    /// Waits for it on this thread: for clean-up, which cannot wait otherwise (a few milliseconds).
    static func runNow(_ program: String, _ arguments: [String], scratch: FaultScratch) throws -> FaultRun {
        let (pid, out, err) = try start(program, arguments, scratch: scratch)
        return finish(program, arguments, status: reap(pid, blocking: true) ?? -1, out: out, err: err)
    }

    private static func start(_ program: String, _ arguments: [String], scratch: FaultScratch) throws -> (
        pid_t, String, String
    ) {
        let name = scratch.path + "/run-" + UUID().uuidString
        let pid = try spawn(
            "/usr/bin/timeout", ["--kill-after=5", "\(limitSeconds)", program] + arguments,
            stdout: name + ".out", stderr: name + ".err")
        return (pid, name + ".out", name + ".err")
    }

    private static func finish(_ program: String, _ arguments: [String], status: Int32, out: String, err: String)
        -> FaultRun
    {
        let result = FaultRun(status: status, stdout: read(out), stderr: read(err))
        if status == 124 || status == 137 {
            Issue.record("\(program) \(arguments) ran out of time: \(result.stderr)")
        }
        return result
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}

/// The exit status of `pid` once it has ended (128 + the signal that ended it), else nil.
private func reap(_ pid: pid_t, blocking: Bool) -> Int32? {
    var status: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
    guard result == pid else { return result < 0 ? -1 : nil }
    return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
}

/// Starts `program` with stdin from /dev/null and stdout and stderr into files, with the
/// default signal handling (the test runner's mask and ignored signals are not inherited).
private func spawn(_ program: String, _ arguments: [String], stdout: String, stderr: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
    return pid
}

/// A `screenmates` process running beside the test under `timeout` (so it ends even if the
/// test runner dies), its output collected in files; killed at the end whatever happens.
private final class FaultChild: @unchecked Sendable {
    private let timeoutPID: pid_t
    private let outPath: String
    private let errPath: String
    private var exitStatus: Int32?
    static let limitSeconds = 600

    init(_ scratch: FaultScratch, _ name: String, _ arguments: [String]) throws {
        outPath = scratch.path + "/\(name)-\(UUID().uuidString).out"
        errPath = outPath.replacingOccurrences(of: ".out", with: ".err")
        timeoutPID = try spawn(
            "/usr/bin/timeout", ["--kill-after=5", "\(Self.limitSeconds)", Binary.path] + arguments,
            stdout: outPath, stderr: errPath)
    }

    deinit { kill() }

    var stdout: String { FaultRun.read(outPath) }
    var stderr: String { FaultRun.read(errPath) }
    /// The event ids printed so far (each printed once committed).
    var ids: [UUID] { stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) } }
    /// What it said on standard error, line by line.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    var isRunning: Bool {
        if exitStatus == nil { exitStatus = reap(timeoutPID, blocking: false) }
        return exitStatus == nil
    }

    /// The program itself (the child of `timeout`).
    private var programPID: pid_t? {
        let children = FaultRun.read("/proc/\(timeoutPID)/task/\(timeoutPID)/children")
        return children.split(separator: " ").compactMap { pid_t($0) }.first
    }

    /// Asks it to stop (SIGTERM, which `timeout` passes on) and waits; its exit status.
    func stop() async -> Int32? {
        guard isRunning else { return exitStatus }
        Glibc.kill(timeoutPID, SIGTERM)
        _ = await eventually(.seconds(30)) { !isRunning }
        if isRunning {
            Issue.record("did not stop on SIGTERM: \(stderr)")
            kill()
        }
        return exitStatus
    }

    func kill() {
        guard isRunning else { return }
        if let program = programPID { Glibc.kill(program, SIGKILL) }
        Glibc.kill(timeoutPID, SIGKILL)
        exitStatus = reap(timeoutPID, blocking: true)
    }
}

/// A dashboard in a private tmux server, driven as a person would: keys in, screen text out.
private final class FaultPane {
    let socket = "sm-faults-" + UUID().uuidString.prefix(8)
    private let scratch: FaultScratch

    /// Starts the dashboard with `arguments` in a 120 × 40 pane: the program itself (no shell),
    /// under `timeout` in the foreground.
    static func start(_ scratch: FaultScratch, _ arguments: [String]) async throws -> FaultPane {
        let pane = FaultPane(scratch: scratch)
        let command =
            ["env", "LANG=C.UTF-8", "SWIFT_BACKTRACE=enable=no", "/usr/bin/timeout", "--foreground", "--kill-after=5"]
            + ["\(FaultChild.limitSeconds)", Binary.path] + arguments
        let started = try await pane.tmux(["new-session", "-d", "-x", "120", "-y", "40", "--"] + command)
        guard started.status == 0 else { throw FaultError("tmux: \(started.stderr)") }
        return pane
    }

    private init(scratch: FaultScratch) {
        self.scratch = scratch
    }

    deinit { close() }

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> FaultRun {
        try await FaultRun.run(
            "/usr/bin/tmux", ["-L", String(socket), "-f", "/dev/null"] + arguments, scratch: scratch)
    }

    func screen() async throws -> String { try await tmux(["capture-pane", "-p"]).stdout }

    /// Waits until the screen satisfies `condition`; a timeout fails the test, showing the screen.
    @discardableResult
    func waitFor(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) async throws -> Bool
    ) async throws -> String {
        let end = ContinuousClock.now + DataDirectoryFaultTests.deadline
        var last = ""
        while true {
            // Looked at once more after the deadline: a test kept waiting for a thread still sees
            // what is there by then.
            let late = ContinuousClock.now >= end
            last = try await screen()
            if try await condition(last) { return last }
            if late { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the dashboard never showed \(what):\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// Quits with `q` and waits for the pane to close.
    func quit() async throws {
        try await tmux(["send-keys", "q"])
        let closed = try await eventuallyAsync(.seconds(30)) { try await self.tmux(["has-session"]).status != 0 }
        #expect(closed, "the dashboard did not quit on q")
    }

    func close() {
        _ = try? FaultRun.runNow(
            "/usr/bin/tmux", ["-L", String(socket), "-f", "/dev/null", "kill-server"], scratch: scratch)
        unlink("/tmp/tmux-\(getuid())/\(socket)")
    }

    /// The blocks used today, from the Today box ("5 / 8 blocks").
    static func blocks(in screen: String) -> Int? {
        guard let range = screen.range(of: #"[0-9]+ / [0-9]+ blocks"#, options: .regularExpression) else {
            return nil
        }
        return Int(screen[range].prefix { $0.isNumber })
    }
}

/// `eventually` for a condition that awaits.
private func eventuallyAsync(_ deadline: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + deadline
    while ContinuousClock.now < end {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
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
        let mounted = try await FaultRun.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", path], scratch: scratch)
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
        var last = FaultRun(status: 0, stdout: "", stderr: "")
        let done = try await eventuallyAsync(.seconds(30)) {
            last = try await FaultRun.run(
                "/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", path], scratch: scratch)
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

    /// Unmounts it (lazily when something still has it open: a killed child not yet gone).
    func unmount() {
        if (try? FaultRun.runNow("/bin/umount", [path], scratch: scratch))?.status != 0 {
            _ = try? FaultRun.runNow("/bin/umount", ["--lazy", path], scratch: scratch)
        }
    }
}
