import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

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
        let store = try SQLiteGroupStore.open(at: path)
        _ = try await Contract.newGroup(in: store)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(mode(path + suffix) == 0o660, "group-store.sqlite\(suffix)")
        }
    }

    @Test func anExistingFileKeepsTheModeItsOwnerGaveIt() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        _ = try SQLiteGroupStore.open(at: path)
        chmod(path, 0o600)
        let store = try SQLiteGroupStore.open(at: path)
        _ = try await Contract.newGroup(in: store)
        #expect(mode(path) == 0o600)
    }

    @Test func whatIsWrittenIsThereForTheNextOpener() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let group = try await Contract.newGroup(in: try SQLiteGroupStore.open(at: path))
        let reopened = try SQLiteGroupStore.open(at: path)
        #expect(try await reopened.group(code: group.code, userID: Contract.bo.userID, now: Contract.start) == group)
        #expect(try await reopened.members(code: group.code) == [Contract.ana])
        #expect(try await reopened.integrityProblems() == [])
    }

    /// Makes `path` read-only for this process: mode 0440, or, for root (whom modes do not
    /// stop), the immutable attribute. False where that cannot be done (a file system without
    /// attributes).
    private func makeReadOnly(_ path: String, _ readOnly: Bool = true) -> Bool {
        guard getuid() == 0 else { return chmod(path, readOnly ? 0o440 : 0o660) == 0 }
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = [readOnly ? "+i" : "-i", path]
        chattr.standardError = FileHandle.nullDevice
        guard (try? chattr.run()) != nil else { return false }
        chattr.waitUntilExit()
        return chattr.terminationStatus == 0
    }

    @Test func aFileThatMayOnlyBeReadStillOpensForReading() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let group = try await Contract.newGroup(in: try SQLiteGroupStore.open(at: path))  // Closed again.
        guard makeReadOnly(path) else { return }
        defer { _ = makeReadOnly(path, false) }
        let store = try SQLiteGroupStore.open(at: path)
        #expect(try await store.members(code: group.code) == [Contract.ana])
        var update = Contract.ana
        update.version = 2
        do {
            try await store.upsertProfile(update)
            Issue.record("a read-only file was written")
        } catch {
            guard case .unavailable(let location, _) = error else { throw error }
            #expect(location == path)
        }
    }

    @Test func aFileThatIsNotADatabaseIsUnusableAndLeftAlone() throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        var generator = SeededGenerator(seed: 7)
        let junk = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(FileManager.default.createFile(atPath: path, contents: junk))
        #expect {
            try SQLiteGroupStore.open(at: path)
        } throws: { error in
            guard case .unusable(let location, _) = error as? GroupStoreError else { return false }
            return location == path && !(error as! GroupStoreError).isTransient
        }
        #expect(FileManager.default.contents(atPath: path) == junk)
    }

    @Test func aPathInAMissingDirectoryIsUnavailable() {
        let scratch = Scratch()
        let path = scratch.path + "/missing/group-store.sqlite"
        #expect {
            try SQLiteGroupStore.open(at: path)
        } throws: { error in
            guard case .unavailable(let location, let detail) = error as? GroupStoreError else { return false }
            return location == path && detail.contains("No such file or directory")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/missing"))
    }

    @Test func openingWaitsForAnotherOpenerThenGivesUp() throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let holder = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(holder >= 0)
        #expect(flock(holder, LOCK_EX) == 0)
        let started = ContinuousClock.now
        #expect {
            try SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
        } throws: { error in
            guard case .unavailable(let location, let detail) = error as? GroupStoreError else { return false }
            return location == path && detail.contains("locked")
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        close(holder)
        _ = try SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
    }

    // MARK: - The change signal

    @Test func anotherConnectionsChangeIsNoticedAtOnceNotAtTheSafetyPoll() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let watching = try SQLiteGroupStore.open(at: path)
        let writing = try SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: watching)
        let counter = Contract.YieldCounter(watching.changes(code: group.code))
        #expect(try await counter.waitForMore(than: 0, timeout: .seconds(1)))
        var delays: [Duration] = []
        for version in Int64(2)...11 {
            var update = Contract.ana
            update.version = version
            let before = counter.yields
            let written = ContinuousClock.now
            try await writing.upsertProfile(update)
            #expect(try await counter.waitForMore(than: before, timeout: .seconds(5)))
            delays.append(ContinuousClock.now - written)
            try await Task.sleep(for: .milliseconds(50))
        }
        await counter.cancel()
        // The safety poll runs every 3 s; notices come within milliseconds.
        let median = delays.sorted()[delays.count / 2]
        #expect(median < .seconds(1), "median delay \(median)")
        #expect(counter.yields == 1 + delays.count, "one yield at the start, then one per change")
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
        let store = try SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: store)
        let counters = (0..<4).map { _ in Contract.YieldCounter(store.changes(code: group.code)) }
        #expect(watches(of: directory) == 4)
        for counter in counters { await counter.cancel() }
        // The watching threads wake, end and close their descriptors.
        let deadline = ContinuousClock.now + .seconds(2)
        while watches(of: directory) > 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(watches(of: directory) == 0)
        #expect(counters.allSatisfy { $0.hasEnded })
    }

    // MARK: - Damage and locks made by another program (the sqlite3 shell)

    private static let shell = "/usr/bin/sqlite3"
    private static let hasShell = FileManager.default.isExecutableFile(atPath: shell)

    /// Runs the sqlite3 shell on `path` with `commands` (SQL or dot-commands, in order).
    @discardableResult
    private func runShell(_ path: String, _ commands: [String], wait: Bool = true) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.shell)
        process.arguments = [path] + commands
        try process.run()
        if wait {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "sqlite3 \(commands)")
        }
        return process
    }

    /// Waits until another connection holds the store's write lock.
    private func waitUntilWriteLocked(_ path: String) async throws {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let probe = try DatabaseQueue(path: path, configuration: configuration)
        for _ in 0..<400 {
            do {
                try probe.inTransaction(.immediate) { _ in .rollback }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("the other program never took the write lock")
    }

    @Test(.enabled(if: hasShell)) func aBadRowIsReportedAsDamageNotACrash() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: store)
        _ = try await store.join(code: group.code, member: Contract.bo, now: Contract.start)
        let planted = [
            "UPDATE member SET display_name = char(27) || '[2Jevil' WHERE user_id = 'bo234567'",
            "UPDATE member SET blocks_today = 'lots' WHERE user_id = 'bo234567'",
            "UPDATE member SET last_updated = 'soon' WHERE user_id = 'bo234567'",
            "UPDATE member SET day = 9223372036854775807 WHERE user_id = 'bo234567'",
        ]
        for damage in planted {
            try runShell(path, ["PRAGMA ignore_check_constraints = ON", damage])
            do {
                _ = try await store.members(code: group.code)
                Issue.record("\(damage) went unnoticed")
            } catch {
                guard case .unusable(let location, let detail) = error else {
                    Issue.record("\(damage) gave \(error)")
                    continue
                }
                #expect(location == path)
                #expect(detail.contains("member."))
            }
            // Put the row back for the next one.
            try runShell(path, ["DELETE FROM member WHERE user_id = 'bo234567'"])
            _ = try await store.join(code: group.code, member: Contract.bo, now: Contract.start)
        }
        try runShell(path, ["UPDATE group_info SET created_at = 'yesterday'"])
        await Contract.expectError(
            .unusable(location: path, detail: "group_info.created_at holds a value that cannot be right")
        ) {
            _ = try await store.group(code: group.code, userID: Contract.bo.userID, now: Contract.start)
        }
    }

    @Test(.enabled(if: hasShell)) func aFileFromANewerVersionIsUnusable() throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        _ = try SQLiteGroupStore.open(at: path)
        try runShell(path, ["INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')"])
        #expect {
            try SQLiteGroupStore.open(at: path)
        } throws: { error in
            guard case .unusable(let location, let detail) = error as? GroupStoreError else { return false }
            return location == path && detail.contains("newer version")
        }
    }

    @Test(.enabled(if: hasShell)) func anotherKindOfDatabaseIsRefusedAndLeftAlone() throws {
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
            try runShell(path, commands)
            let before = FileManager.default.contents(atPath: path)
            #expect {
                try SQLiteGroupStore.open(at: path)
            } throws: { error in
                guard case .unusable(let location, let detail) = error as? GroupStoreError else { return false }
                return location == path && detail.contains("not a ScreenMates group store")
            }
            #expect(FileManager.default.contents(atPath: path) == before)
        }
    }

    @Test(.enabled(if: hasShell)) func aWriteLockHeldTooLongMakesTheStoreUnavailableNotBroken() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try SQLiteGroupStore.open(at: path, busyTimeout: 0.3)
        let group = try await Contract.newGroup(in: store)
        // The other program holds the lock until the flag file is gone.
        let flag = scratch.path + "/holding"
        #expect(FileManager.default.createFile(atPath: flag, contents: nil))
        let holder = try runShell(
            path,
            [
                "BEGIN IMMEDIATE", "UPDATE group_info SET change_seq = change_seq",
                ".shell while [ -e '\(flag)' ]; do sleep 0.05; done", "COMMIT",
            ],
            wait: false)
        try await waitUntilWriteLocked(path)
        var update = Contract.ana
        update.version = 2
        do {
            try await store.upsertProfile(update)
            Issue.record("a write went through another program's write lock")
        } catch {
            guard case .unavailable(let location, _) = error else { throw error }
            #expect(location == path)
            #expect(error.isTransient)
        }
        // Reading goes on meanwhile (WAL); once the lock is gone, the write goes through.
        #expect(try await store.members(code: group.code) == [Contract.ana])
        try FileManager.default.removeItem(atPath: flag)
        holder.waitUntilExit()
        #expect(try await store.upsertProfile(update))
    }
}
