import Foundation
import ScreenMatesWatch
import Testing

/// Notices of files written in a directory, on the real kernel's inotify.
@Suite struct FileNoticesTests {
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "screenmates-notices-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aWatchedFileWrittenIsNoticedAndAnotherIsNot() throws {
        let path = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let notices = try #require(FileNotices(directory: path, prefix: "local.sqlite"))
        #expect(!notices.drain(), "nothing written yet")
        try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/other.txt"))
        #expect(!notices.drain(), "a file that is not watched")
        try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/local.sqlite-wal"))
        #expect(notices.drain(), "the database's log")
        #expect(!notices.drain(), "each notice is read once")
    }

    @Test func aDirectoryThatCannotBeWatchedGivesNoWatcher() {
        #expect(FileNotices(directory: "/nonexistent-" + UUID().uuidString, prefix: "x") == nil)
    }

    @Test func aWakePipeWakesAPollAndManyWakeUpsCollapse() {
        let pipe = WakePipe()
        for _ in 0..<100 { pipe.wake() }
        var descriptor = pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 0) == 1)
        pipe.drain()
        descriptor.revents = 0
        #expect(poll(&descriptor, 1, 0) == 0, "drained")
    }
}
