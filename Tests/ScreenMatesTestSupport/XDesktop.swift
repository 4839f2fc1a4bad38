import Foundation
import Glibc
import Synchronization
import Testing

/// A private X server (Xvfb) with a real window manager (openbox) and windows of two classes,
/// for as long as the scope `with` opens; everything is ended and awaited when it closes.
public struct XDesktop: Sendable {
    public static let tools = [
        "/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xdotool", "/usr/bin/xterm", "/usr/bin/xprop",
    ]
    public static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
    public static let missingNote =
        "Xvfb, openbox, xdotool, xterm or xprop is not installed (Debian: apt install xvfb openbox xdotool xterm x11-utils)"

    public let display: String
    let programs: BackgroundPrograms

    public static func with<T>(_ body: (XDesktop) async throws -> T) async throws -> T {
        try await BackgroundPrograms.with { programs in
            let desktop = XDesktop(display: try await startServer(programs), programs: programs)
            try await desktop.startWindowManager()
            return try await body(desktop)
        }
    }

    /// Starts Xvfb on a display number no one holds; Xvfb refuses one whose lock exists, and
    /// the next is tried.
    private static func startServer(_ programs: BackgroundPrograms, number wanted: Int? = nil) async throws -> String {
        let numbers = wanted.map { [$0] } ?? Array(Int.random(in: 100..<300)..<400)
        for number in numbers where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let ended = Flag()
            programs.start(
                "/usr/bin/Xvfb", [":\(number)", "-screen", "0", "800x600x24", "-nolisten", "tcp"], environment: [:]
            ) { _ in ended.set() }
            for _ in 0..<400 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                if ended.isSet { break }
                try await Task.sleep(for: .milliseconds(25))
            }
            if !ended.isSet, FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { return ":\(number)" }
        }
        throw XDesktopError.noServer
    }

    /// Openbox is up once it has published its check window; windows mapped before that are
    /// not managed, and nothing publishes the focus.
    private func startWindowManager() async throws {
        start("/usr/bin/openbox", [])
        for _ in 0..<400 {
            let check = try await Command.run(
                "/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: environment)
            if check.stdout.contains("window id") { break }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    public var environment: [String: String] {
        ["DISPLAY": display, "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
    }

    public func start(_ path: String, _ arguments: [String]) {
        programs.start(path, arguments, environment: environment)
    }

    /// Runs xdotool and returns what it printed.
    @discardableResult
    public func xdotool(_ arguments: [String]) async throws -> String {
        let result = try await Command.run("/usr/bin/xdotool", arguments, environment: environment)
        try #require(result.status == 0, "xdotool \(arguments) ended with \(result.status): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A window of class `name`, once mapped: its id.
    public func window(class name: String) async throws -> String {
        start("/usr/bin/xterm", ["-class", name, "-title", "\(name) window", "-e", "sleep", "1000"])
        let id = try await xdotool(["search", "--sync", "--onlyvisible", "--class", name]).split(separator: "\n").first
        return String(try #require(id))
    }

    /// Ends the X server (its pid is in its lock file), as a session that ends does; returns
    /// once its socket is gone.
    public func endServer() async throws {
        let number = display.dropFirst()
        let lock = try String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)
        let pid = try #require(Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        for _ in 0..<400 where FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Starts an X server again on the same display (with no window manager).
    public func restartServer() async throws {
        _ = try await Self.startServer(programs, number: Int(display.dropFirst()))
    }

    /// Whether a program has ended, told from another task.
    public final class Flag: Sendable {
        private let value = Mutex(false)
        public init() {}
        public func set() { value.withLock { $0 = true } }
        public var isSet: Bool { value.withLock { $0 } }
    }

    public enum XDesktopError: Error { case noServer }
}
