import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesSQLiteGroupStore

/// The group-store contract on a SQLite file, and what only a file can do: permissions,
/// damage, a missing directory, a lock held too long.
@Suite struct SQLiteGroupStoreTests {
    private typealias Contract = GroupStoreContract

    @Test(arguments: GroupStoreContract.all)
    func contract(_ check: GroupStoreContract.Check) async throws {
        let scratch = Scratch()
        try await check.run(scratch.fixture)
    }

    // MARK: - The file

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        #expect(stat(path, &info) == 0, "\(path) should exist")
        return info.st_mode & 0o777
    }

    @Test func theFileIsSharedWithTheGroupButNotOthers() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try await SQLiteGroupStore.open(at: path)
        _ = try await Contract.newGroup(in: store)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(mode(path + suffix) == 0o660, "group-store.sqlite\(suffix)")
        }
    }

    @Test func anExistingFileKeepsTheModeItsOwnerGaveIt() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        _ = try await SQLiteGroupStore.open(at: path)
        chmod(path, 0o600)
        let store = try await SQLiteGroupStore.open(at: path)
        _ = try await Contract.newGroup(in: store)
        #expect(mode(path) == 0o600)
    }

    @Test func whatIsWrittenIsThereForTheNextOpener() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let group = try await Contract.newGroup(in: try await SQLiteGroupStore.open(at: path))
        let reopened = try await SQLiteGroupStore.open(at: path)
        #expect(try await reopened.group(code: group.code, userID: Contract.bo.userID, now: Contract.start) == group)
        #expect(try await reopened.members(code: group.code) == [Contract.ana])
        #expect(try await reopened.integrityProblems() == [])
    }

    /// Runs a system tool with a time limit; its exit status and standard error.
    private static func runTool(_ tool: String, _ arguments: [String]) async -> (status: Int32, stderr: String) {
        do {
            let result = try await Command.run(tool, arguments, timeout: 30)
            let oneLine = result.stderr.split(whereSeparator: \.isNewline).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return (result.status, oneLine.joined(separator: " "))
        } catch {
            return (-1, "\(tool) could not be run: \(error)")
        }
    }

    /// How a file was made read-only for this process, and how to undo it.
    private enum ReadOnly {
        case made(how: String, undo: @Sendable () async -> Void)
        case impossible(reason: String)
    }

    /// Makes the file at `path` read-only for this process: mode 0440 for a user whom modes
    /// stop; for root, whom they do not, a read-only bind mount of the file over itself (needs
    /// the right to mount), else the immutable attribute (needs a file system that has it).
    private func makeReadOnly(_ path: String) async -> ReadOnly {
        guard getuid() == 0 else {
            guard chmod(path, 0o440) == 0 else { return .impossible(reason: "chmod 0440 failed: errno \(errno)") }
            return .made(how: "mode 0440", undo: { chmod(path, 0o660) })
        }
        let bind = await Self.runTool("/bin/mount", ["--bind", path, path])
        if bind.status == 0 {
            let readOnly = await Self.runTool("/bin/mount", ["-o", "remount,bind,ro", path])
            if readOnly.status == 0 {
                return .made(
                    how: "a read-only bind mount",
                    undo: {
                        // A descriptor still open (a connection not yet closed) makes it busy.
                        if await Self.runTool("/bin/umount", [path]).status != 0 {
                            _ = await Self.runTool("/bin/umount", ["--lazy", path])
                        }
                    })
            }
            _ = await Self.runTool("/bin/umount", [path])
        }
        let chattr = await Self.runTool("/usr/bin/chattr", ["+i", path])
        if chattr.status == 0 {
            return .made(
                how: "the immutable attribute", undo: { _ = await Self.runTool("/usr/bin/chattr", ["-i", path]) })
        }
        return .impossible(
            reason: "root ignores file modes, and neither a read-only bind mount (\(bind.stderr)) nor the "
                + "immutable attribute (\(chattr.stderr)) could be had here")
    }

    @Test func aFileThatMayOnlyBeReadStillOpensForReading() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let group = try await Contract.newGroup(in: try await SQLiteGroupStore.open(at: path))  // Closed again.
        switch await makeReadOnly(path) {
        case .impossible(let reason):
            try Test.cancel("Skipped: the file cannot be made read-only for this process: \(reason).")
        case .made(let how, let undo):
            // The condition is real: this process cannot open the file for writing.
            let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
            #expect(fd < 0, "\(how) left the file writable")
            if fd >= 0 { close(fd) }
            do {
                try await readButNotWrite(path, group: group, how: how)  // The store is closed again.
            } catch {
                await undo()
                throw error
            }
            await undo()
        }
    }

    private func readButNotWrite(_ path: String, group: Group, how: String) async throws {
        let store = try await SQLiteGroupStore.open(at: path)
        #expect(try await store.members(code: group.code) == [Contract.ana])
        let (_, refusal) = await sendVersionTwo(to: store)
        guard case .unavailable(let location, _) = refusal else {
            Issue.record("a read-only file (\(how)) was written or refused otherwise: \(String(describing: refusal))")
            return
        }
        #expect(location == path)
    }

    /// ana's profile at version 2, sent to `store`, and what the store refused it with (nil when
    /// it took it).
    private func sendVersionTwo(to store: SQLiteGroupStore) async -> (update: MemberProfile, refusal: GroupStoreError?)
    {
        var update = Contract.ana
        update.version = 2
        do {
            try await store.upsertProfile(update)
            return (update, nil)
        } catch {
            return (update, error)
        }
    }

    /// Another program (the sqlite3 shell) takes the file's write lock (`BEGIN IMMEDIATE`, then
    /// `commands`) and holds it until the returned `release` is called; this returns once it holds
    /// it.
    private func holdWriteLock(_ path: String, scratch: Scratch, then commands: [String] = []) async throws
        -> () async throws -> Void
    {
        let flag = scratch.path + "/holding"
        #expect(FileManager.default.createFile(atPath: flag, contents: nil))
        let holder = try await startShell(
            path,
            [".timeout 30000", "BEGIN IMMEDIATE"] + commands + [
                ".shell while [ -e '\(flag)' ]; do sleep 0.05; done", "COMMIT",
            ])
        try await waitUntilWriteLocked(path)
        return {
            try FileManager.default.removeItem(atPath: flag)
            await holder.wait()
        }
    }

    @Test func aFileThatIsNotADatabaseIsUnusableAndLeftAlone() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        var generator = SeededGenerator(seed: 7)
        let junk = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(FileManager.default.createFile(atPath: path, contents: junk))
        await #expect {
            try await SQLiteGroupStore.open(at: path)
        } throws: { error in
            guard case .unusable(let location, _) = error as? GroupStoreError else { return false }
            return location == path && !(error as! GroupStoreError).isTransient
        }
        #expect(FileManager.default.contents(atPath: path) == junk)
    }

    @Test func aPathInAMissingDirectoryIsUnavailable() async {
        let scratch = Scratch()
        let path = scratch.path + "/missing/group-store.sqlite"
        await #expect {
            try await SQLiteGroupStore.open(at: path)
        } throws: { error in
            guard case .unavailable(let location, let detail) = error as? GroupStoreError else { return false }
            return location == path && detail.contains("No such file or directory")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/missing"))
    }

    @Test func openingWaitsForAnotherOpenerThenGivesUp() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let holder = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(holder >= 0)
        #expect(flock(holder, LOCK_EX) == 0)
        let started = ContinuousClock.now
        await #expect {
            try await SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
        } throws: { error in
            guard case .unavailable(let location, let detail) = error as? GroupStoreError else { return false }
            return location == path && detail.contains("locked")
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        close(holder)
        _ = try await SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
    }

    // MARK: - The change signal

    /// With the safety poll put off beyond the test's length, every yield comes from a change
    /// notice: each change by another connection must be seen, within a generous deadline. How
    /// fast is measured by `screenmates-bench`, not bounded here.
    @Test func anotherConnectionsChangeIsNoticedByItsNoticeNotTheSafetyPoll() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let watching = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: watching)
        let counter = Contract.YieldCounter(watching.changes(code: group.code, safetyInterval: .seconds(3600)))
        #expect(try await counter.waitForMore(than: 0, timeout: .seconds(30)), "a first yield, for a first look")
        // Another program's connection adds one to the group's change mark, as every store write
        // does. It does not wait for the disk (a store waits for its log to reach the disk, which
        // can take longer than the notice's rechecks on a busy machine: then only the safety poll
        // would see it, and it is put off here).
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
        let writing = try DatabaseQueue(path: path, configuration: configuration)
        var delays: [Duration] = []
        for round in 1...10 {
            let before = counter.yields
            let written = ContinuousClock.now
            try await writing.write { db in
                try db.execute(
                    sql: "UPDATE group_info SET change_seq = change_seq + 1 WHERE code = ?",
                    arguments: [group.code.value])
            }
            #expect(try await counter.waitForMore(than: before, timeout: .seconds(30)), "round \(round): no yield")
            delays.append(ContinuousClock.now - written)
            try await Task.sleep(for: .milliseconds(50))
        }
        await counter.cancel()
        #expect(counter.yields == 1 + delays.count, "one yield at the start, then one per change")
        print("group store change notice: median \(delays.sorted()[delays.count / 2]) (10 changes)")
    }

    /// The inotify descriptors watching `directory` that this process holds.
    private func watches(of directory: String) -> Int {
        var info = stat()
        guard stat(directory, &info) == 0 else { return -1 }
        let inode = "ino:" + String(info.st_ino, radix: 16)
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { fd in
            guard
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))
                    == "anon_inode:inotify",
                let details = try? String(contentsOfFile: "/proc/self/fdinfo/" + fd, encoding: .utf8)
            else { return false }
            return details.split(whereSeparator: \.isWhitespace).contains { $0 == inode }
        }.count
    }

    @Test func aCancelledConsumerReleasesTheWatch() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let directory = (path as NSString).deletingLastPathComponent
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: store)
        let counters = (0..<4).map { _ in Contract.YieldCounter(store.changes(code: group.code)) }
        #expect(watches(of: directory) == 4)
        for counter in counters { await counter.cancel() }
        // The watching threads wake and end; closing the store joins them, and their
        // descriptors are closed.
        await store.close()
        #expect(watches(of: directory) == 0)
        #expect(counters.allSatisfy { $0.hasEnded })
    }

    /// The thread watching a subscription is the store's: woken when the subscription ends (its
    /// safety poll is an hour away, so nothing else would wake it), and gone once the store is
    /// closed. A subscription still running when the store closes ends too, and so does one
    /// asked for afterwards.
    @Test func aSubscriptionsThreadIsGoneOnceTheStoreIsClosed() async throws {
        let scratch = Scratch()
        let store = try await SQLiteGroupStore.open(at: scratch.newStorePath())
        let group = try await Contract.newGroup(in: store)
        let ended = Contract.YieldCounter(store.changes(code: group.code, safetyInterval: .seconds(3600)))
        let running = Contract.YieldCounter(store.changes(code: group.code, safetyInterval: .seconds(3600)))
        #expect(try await ended.waitForMore(than: 0, timeout: .seconds(30)), "a first yield, for a first look")
        #expect(try await running.waitForMore(than: 0, timeout: .seconds(30)), "a first yield, for a first look")
        let threads = store.changeWatchThreadIDs
        #expect(threads.count == 2)
        #expect(threads.allSatisfy { Self.threadExists($0) })
        await ended.cancel()
        await store.close()
        #expect(!threads.contains { Self.threadExists($0) }, "the watching threads are gone")
        await running.waitForEnd()
        #expect(running.hasEnded, "the stream still consumed ended with the store")
        #expect(store.changeWatchThreadIDs.isEmpty)
        let late = store.changes(code: group.code)
        var yields = 0
        for await _ in late { yields += 1 }
        #expect(yields == 0, "a stream asked for after closing ends at once")
        #expect(store.changeWatchThreadIDs.isEmpty)
    }

    /// Whether this process has a thread with the id `gettid` gave it.
    private static func threadExists(_ id: Int32) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
    }

    // MARK: - Damage and locks made by another program (the sqlite3 shell)

    private static let shell = "/usr/bin/sqlite3"
    private static let hasShell = FileManager.default.isExecutableFile(atPath: shell)

    /// Runs the sqlite3 shell on `path` with `commands` (SQL or dot-commands, in order), to its end.
    private func runShell(_ path: String, _ commands: [String]) async throws {
        let result = try await Command.run(Self.shell, [path] + commands)
        #expect(result.status == 0, "sqlite3 \(commands): \(result.stderr)")
    }

    /// The sqlite3 shell on `path` with `commands`, left running.
    private func startShell(_ path: String, _ commands: [String]) async throws -> SpawnedProcess {
        try await SpawnedProcess(Self.shell, [path] + commands)
    }

    /// Waits until another connection holds the store's write lock.
    private func waitUntilWriteLocked(_ path: String) async throws {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let probe = try DatabaseQueue(path: path, configuration: configuration)
        for _ in 0..<1200 {
            do {
                try probe.inTransaction(.immediate) { _ in .rollback }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("the other program never took the write lock")
    }

    @Test(.enabled(if: hasShell)) func aFileFromANewerVersionIsUnusable() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        _ = try await SQLiteGroupStore.open(at: path)
        try await runShell(path, ["INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')"])
        await #expect {
            try await SQLiteGroupStore.open(at: path)
        } throws: { error in
            guard case .unusable(let location, let detail) = error as? GroupStoreError else { return false }
            return location == path && detail.contains("newer version")
        }
    }

    @Test(.enabled(if: hasShell)) func anotherKindOfDatabaseIsRefusedAndLeftAlone() async throws {
        let scratch = Scratch()
        let others = [
            ["CREATE TABLE notes (text TEXT)", "INSERT INTO notes VALUES ('mine')"],
            // Another GRDB database, such as the local one given by mistake.
            [
                "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
                "INSERT INTO grdb_migrations VALUES ('v1: events, profile, apps, history')",
                "CREATE TABLE usage_event (id TEXT)",
            ],
        ]
        for commands in others {
            let path = scratch.newStorePath()
            try await runShell(path, commands)
            let before = FileManager.default.contents(atPath: path)
            await #expect {
                try await SQLiteGroupStore.open(at: path)
            } throws: { error in
                guard case .unusable(let location, let detail) = error as? GroupStoreError else { return false }
                return location == path && detail.contains("not a ScreenMates group store")
            }
            #expect(FileManager.default.contents(atPath: path) == before)
        }
    }

    @Test(.enabled(if: hasShell)) func aWriteLockHeldTooLongMakesTheStoreBusyNotBroken() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
        let group = try await Contract.newGroup(in: store)
        let release = try await holdWriteLock(
            path, scratch: scratch, then: ["UPDATE group_info SET change_seq = change_seq"])
        let (update, refusal) = await sendVersionTwo(to: store)
        if case .busy(let location, let detail) = refusal {
            #expect(location == path)
            #expect(detail.contains("another program holds its lock"), "\(detail)")
            #expect(refusal?.isTransient == true)
        } else {
            Issue.record("a write went through another program's write lock: \(String(describing: refusal))")
        }
        // Reading goes on meanwhile (WAL); once the lock is gone, the write goes through.
        #expect(try await store.members(code: group.code) == [Contract.ana])
        try await release()
        #expect(try await store.upsertProfile(update))
    }

    /// A member starting while another program holds the file's write lock: every connection
    /// was closed before (so the WAL is empty), and opening a pool for writing would write to it.
    /// The store opens and reads at once; its writes are busy until the lock is let go.
    @Test(.enabled(if: hasShell)) func aFileHeldByAnotherProgramOpensReadsAndWritesOnceLetGo() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let code: GroupCode
        do {
            let first = try await SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
            code = try await Contract.newGroup(in: first).code
            await first.close()
        }
        let release = try await holdWriteLock(path, scratch: scratch)
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0, "every connection closed, the WAL is empty")

        let store = try await SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
        #expect(try await store.members(code: code) == [Contract.ana])
        let (update, refusal) = await sendVersionTwo(to: store)
        try await release()
        guard case .busy = refusal else {
            Issue.record("a write went through another program's write lock: \(String(describing: refusal))")
            return
        }
        #expect(try await store.upsertProfile(update))
        #expect(try await store.members(code: code) == [update])
    }
}
