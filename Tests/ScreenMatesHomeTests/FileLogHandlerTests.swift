import Foundation
import Logging
import Testing

@testable import ScreenMatesHome

/// The log file's handlers: one descriptor for every logger of a file, closed with the last.
@Suite struct FileLogHandlerTests {
    @Test func theHandlersOfOneFileShareOneDescriptorClosedWithTheLast() throws {
        let directory = NSTemporaryDirectory() + "screenmates-log-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/screenmates.log"
        var handlers = (0..<20).map { FileLogHandler(label: "test.\($0)", path: path) }
        #expect(Self.descriptors(of: path) == 1)
        for (index, handler) in handlers.enumerated() {
            handler.log(
                event: LogEvent(
                    level: .info, message: "line \(index)", metadata: nil, source: "test", file: #fileID,
                    function: #function, line: #line))
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 20 && lines.last?.hasSuffix("line 19") == true, "\(lines)")
        handlers.removeAll()
        #expect(Self.descriptors(of: path) == 0)
    }

    /// How many of this process's descriptors are open on `path`.
    private static func descriptors(of path: String) -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path
        }
        .count
    }
}
