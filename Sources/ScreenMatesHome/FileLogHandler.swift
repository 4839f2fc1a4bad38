import Foundation
import Glibc
import Logging
import Synchronization

/// Writes log lines to a file in the home directory (never to the terminal while the dashboard
/// is on screen). The file is created readable by its owner only.
///
/// Every logger made gets a handler of its own (swift-log asks the factory for each), so the
/// handlers of one file share one descriptor, closed when the last of them goes.
public struct FileLogHandler: LogHandler {
    private final class Sink: Sendable {
        let descriptor: Int32
        let lock = Mutex(())

        /// The sink of each file that a handler still holds.
        private static let open = Mutex<[String: Held]>([:])

        private struct Held: Sendable {
            weak var sink: Sink?
        }

        /// The file's sink: the one handlers of the file share, or a new one (nil when the
        /// file cannot be opened).
        static func shared(path: String) -> Sink? {
            open.withLock { open in
                if let sink = open[path]?.sink { return sink }
                guard let sink = Sink(path: path) else { return nil }
                open[path] = Held(sink: sink)
                return sink
            }
        }

        private init?(path: String) {
            let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return nil }
            descriptor = fd
        }

        deinit { close(descriptor) }

        func write(_ line: String) {
            lock.withLock { _ in
                var bytes = Array(line.utf8)
                bytes.withUnsafeMutableBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
        }
    }

    private let sink: Sink?
    private let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(label: String, path: String) {
        self.label = label
        self.sink = Sink.shared(path: path)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        guard let sink else { return }
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let extra =
            merged.isEmpty
            ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let stamp = Date().formatted(.iso8601)
        sink.write("\(stamp) \(event.level) [\(label)] pid=\(getpid()) \(event.message)\(extra)\n")
    }
}
