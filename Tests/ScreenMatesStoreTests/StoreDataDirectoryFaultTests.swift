import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// The store on a file system of the test's own (a small tmpfs) that turns read-only or fills
/// up: `WriteProblem` names the fault without writing, a failed write names it too, and a store
/// opened read-only writes again once reopened. Mounting needs privileges; without them the
/// tests report themselves skipped, with the reason.
@Suite(.serialized) struct StoreDataDirectoryFaultTests {
    /// A tmpfs mounted on a fresh directory for the length of `with` (then unmounted, and the
    /// directory removed).
    private final class Mount {
        let path: String
        let directory = TemporaryDirectory()

        /// Runs `body` with a tmpfs of `megabytes`, unmounted afterwards however `body` ends.
        static func with<T>(megabytes: Int, _ body: (Mount) async throws -> T) async throws -> T {
            let mount = try await Mount(megabytes: megabytes)
            do {
                let result = try await body(mount)
                await unmountFile(mount.path)
                return result
            } catch {
                await unmountFile(mount.path)
                throw error
            }
        }

        private init(megabytes: Int) async throws {
            path = directory.path + "/mnt"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let mounted = await Self.tool(
                "/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", path])
            guard mounted.status == 0 else {
                try Test.cancel(
                    Comment(
                        rawValue: "Skipped: a file system of the test's own is needed, and mounting a tmpfs is not "
                            + "allowed here (uid \(getuid()): \(mounted.stderr))."))
            }
        }

        /// Remounts it read-only or read-write; true when that worked.
        func remount(readOnly: Bool) async -> Bool {
            let result = await Self.tool("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", path])
            #expect(result.status == 0, "remount: \(result.stderr)")
            return result.status == 0
        }

        /// Unmounts what is mounted on `path`, lazily when something still has it open.
        static func unmountFile(_ path: String) async {
            if await tool("/bin/umount", [path]).status != 0 { _ = await tool("/bin/umount", ["--lazy", path]) }
        }

        /// Runs a system tool with a time limit; its exit status and standard error.
        static func tool(_ path: String, _ arguments: [String]) async -> (status: Int32, stderr: String) {
            do {
                let result = try await Command.run(path, arguments, timeout: 30)
                let oneLine = result.stderr.split(whereSeparator: \.isNewline).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                return (result.status, oneLine.joined(separator: " "))
            } catch {
                return (-1, "\(path) could not be run: \(error)")
            }
        }
    }

    private func events(_ count: Int, from hour: Int) -> [UsageEvent] {
        (0..<count).map { Fixtures.event(.vice, at: String(format: "2026-11-02T%02d:%02d", hour, $0)) }
    }

    @Test func nothingStopsWritesToAnOrdinaryDirectory() throws {
        let directory = TemporaryDirectory()
        _ = try Fixtures.store(in: directory)
        #expect(WriteProblem.find(forDatabaseAt: directory.databasePath) == nil)
    }

    @Test func aFileSystemMountedReadOnlyIsNamedAndAStoreOpenedOnItWritesOnceReopened() async throws {
        try await Mount.with(megabytes: 8) { mount in
            let path = mount.path + "/local.sqlite"
            try writeAndClose(path: path)
            guard await mount.remount(readOnly: true) else { return }
            #expect(WriteProblem.find(forDatabaseAt: path) == .readOnlyFileSystem)

            try await writeAfterReopening(path: path, mount: mount)
            #expect(WriteProblem.find(forDatabaseAt: path) == nil)
        }
    }

    /// A store with some events, closed again (so the file system can be remounted read-only).
    private func writeAndClose(path: String) throws {
        let store = try LocalStore.open(at: path)
        #expect(try store.record(events(3, from: 9)) == 3)
        #expect(!store.isReadOnly)
    }

    private func writeAfterReopening(path: String, mount: Mount) async throws {
        let store = try LocalStore.open(at: path)
        #expect(store.isReadOnly, "opened on a read-only file system")
        #expect(try store.eventCount() == 3, "what is there can be read")
        let waiting = events(2, from: 10)
        do {
            _ = try store.record(waiting)
            Issue.record("a read-only file system was written")
        } catch {
            #expect(error == .notWritable(path: path, detail: "its file system is mounted read-only"))
            #expect(error.message.contains("Cannot write to \(path) (its file system is mounted read-only)"))
        }
        guard await mount.remount(readOnly: false) else { return }
        // SQLite keeps the store read-only for this process…
        #expect(throws: StoreError.self) { try store.record(waiting) }
        // …until it is opened again.
        try store.reopen()
        #expect(!store.isReadOnly)
        #expect(try store.record(waiting) == 2)
        #expect(try store.eventCount() == 5)
    }

    @Test func aMonitorsSinkWritesWhatWaitedOnceTheFileSystemIsWritable() async throws {
        try await Mount.with(megabytes: 8) { mount in
            let path = mount.path + "/local.sqlite"
            try writeAndClose(path: path)
            guard await mount.remount(readOnly: true) else { return }
            try await sinkRetries(path: path, mount: mount)
        }
    }

    private func sinkRetries(path: String, mount: Mount) async throws {
        // The monitor keeps its store open for the whole run, beside the sink.
        let store = try LocalStore.open(at: path)
        let sink = ReopeningEventSink(store: store)
        let waiting = events(4, from: 11)
        #expect(throws: StoreError.self) { try sink.record(waiting) }
        #expect(throws: StoreError.self) { try sink.record(waiting) }
        guard await mount.remount(readOnly: false) else { return }
        #expect(try sink.record(waiting) == 4)
        #expect(try store.eventCount() == 7)
    }

    @Test func aFullDiskIsNamedBeforeAnyWriteFails() async throws {
        try await Mount.with(megabytes: 2) { mount in try await fillUp(mount) }
    }

    private func fillUp(_ mount: Mount) async throws {
        let path = mount.path + "/local.sqlite"
        try writeAndClose(path: path)
        #expect(WriteProblem.find(forDatabaseAt: path) == nil)
        let filler = mount.path + "/filler"
        defer { unlink(filler) }
        let fd = Glibc.open(filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        let chunk = [UInt8](repeating: 0, count: 1 << 16)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        #expect(errno == ENOSPC)
        close(fd)
        #expect(WriteProblem.find(forDatabaseAt: path) == .diskFull)
        unlink(filler)
        // The space comes back once the last reference to the filler goes (a process another
        // test is starting at this moment may hold a copy of its descriptor until it execs).
        let deadline = ContinuousClock.now + .seconds(30)
        while WriteProblem.find(forDatabaseAt: path) != nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(WriteProblem.find(forDatabaseAt: path) == nil)
    }

    @Test func aFileThisUserMayNotWriteIsNamed() async throws {
        let directory = TemporaryDirectory()
        _ = try Fixtures.store(in: directory)
        let path = directory.databasePath
        if getuid() != 0 {
            chmod(path, 0o400)
            defer { chmod(path, 0o600) }
            #expect(WriteProblem.find(forDatabaseAt: path) == .fileNotWritable)
            return
        }
        // Modes do not stop root: a read-only bind mount of the file over itself does.
        let bind = await Mount.tool("/bin/mount", ["--bind", path, path])
        guard bind.status == 0 else {
            try Test.cancel(
                Comment(
                    rawValue: "Skipped: modes do not stop root, and a bind mount is not allowed here (\(bind.stderr)).")
            )
        }
        let readOnly = await Mount.tool("/bin/mount", ["-o", "remount,bind,ro", path])
        #expect(readOnly.status == 0, "\(readOnly.stderr)")
        #expect(WriteProblem.find(forDatabaseAt: path) == .fileNotWritable)
        await Mount.unmountFile(path)
    }
}
