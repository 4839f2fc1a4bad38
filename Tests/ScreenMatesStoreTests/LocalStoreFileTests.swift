import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

@Suite struct LocalStoreFileTests {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        #expect(stat(path, &info) == 0, "\(path) should exist")
        return info.st_mode & 0o777
    }

    @Test func theDatabaseAndItsCompanionsAreReadableByTheOwnerOnly() throws {
        let directory = TemporaryDirectory()
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try Fixtures.store(in: directory)
        try store.record([Fixtures.event(.vice, at: "2026-11-21T10:00")])
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(mode(directory.databasePath + suffix) == 0o600, "local.sqlite\(suffix)")
        }
    }

    @Test func anExistingFileWithWideModeIsTightened() throws {
        let directory = TemporaryDirectory()
        _ = try Fixtures.store(in: directory)
        chmod(directory.databasePath, 0o644)
        _ = try LocalStore.open(at: directory.databasePath)
        #expect(mode(directory.databasePath) == 0o600)
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsDamagedAndLeftAlone() throws {
        let directory = TemporaryDirectory()
        let junk = Data(repeating: 0x41, count: 8192)
        _ = FileManager.default.createFile(atPath: directory.databasePath, contents: junk)
        #expect {
            try LocalStore.open(at: directory.databasePath)
        } throws: { error in
            guard case .damaged(let path, _) = error as? StoreError else { return false }
            return path == directory.databasePath
        }
        #expect(FileManager.default.contents(atPath: directory.databasePath) == junk)
    }

    @Test func theDamagedMessageNamesTheFileAndTheWayOut() {
        let message = StoreError.damaged(path: "/x/local.sqlite", detail: "file is not a database").message
        #expect(message.contains("/x/local.sqlite"))
        #expect(message.contains("screenmates recover"))
    }

    @Test func aMissingDirectoryGivesACannotOpenError() {
        #expect(throws: StoreError.self) {
            try LocalStore.open(at: "/nonexistent-screenmates-dir/local.sqlite")
        }
    }

    @Test func openingConcurrentlyFromManyThreadsCreatesOneSchema() async throws {
        let directory = TemporaryDirectory()
        let path = directory.databasePath
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let store = try LocalStore.open(at: path)
                    _ = try store.createProfileIfNeeded(
                        userID: "abcd2345", trackingStart: LocalDate(iso8601: "2026-11-01")!, apps: Fixtures.apps)
                    try store.record([Fixtures.event(.vice, at: "2026-11-21T10:00")])
                }
            }
            try await group.waitForAll()
        }
        let store = try LocalStore.open(at: path)
        #expect(try store.eventCount() == 8)
        #expect(try store.settings()?.userID == UserID("abcd2345"))
    }
}
