import Foundation
import Glibc
import Synchronization
import Testing

/// A private X server (Xvfb) with a real window manager (openbox) and windows of two classes,
/// for as long as the scope `with` opens; everything is ended and awaited when it closes.
///
/// The window manager is checked, not assumed: it is up once its check window names it, a new
/// window counts once openbox manages it (`WM_STATE` set), and `focus` waits for openbox to
/// publish the active window. An openbox that does none of these in time is started again
/// (`--replace`), and a desktop that still does not work fails with what it saw.
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
    /// the next is tried. `-noreset`: an X server resets whenever its last client leaves (an
    /// `xprop` asking whether openbox is up, before openbox has connected), and a client
    /// connecting during that reset fails — openbox then ended at once, "Failed to open the
    /// display", and the desktop had no window manager (4 starts in 30 without it, none with it).
    private static func startServer(_ programs: BackgroundPrograms, number wanted: Int? = nil) async throws -> String {
        let numbers = wanted.map { [$0] } ?? Array(Int.random(in: 100..<300)..<400)
        for number in numbers where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let ended = Flag()
            programs.start(
                "/usr/bin/Xvfb", [":\(number)", "-noreset", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                environment: [:]
            ) { _ in ended.set() }
            for _ in 0..<400 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                if ended.isSet { break }
                try await Task.sleep(for: .milliseconds(25))
            }
            if !ended.isSet, FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { return ":\(number)" }
        }
        throw XDesktopError.noServer
    }

    /// How many times openbox is started, at most, before the desktop is declared broken.
    static let windowManagerStarts = 3

    /// Starts openbox (again: `--replace` takes over from one that stopped answering) and waits
    /// until it is up: the root's `_NET_SUPPORTING_WM_CHECK` names a window that names Openbox.
    /// Windows mapped before that are not managed, and nothing publishes the focus.
    private func startWindowManager() async throws {
        var seen: [String] = []
        for attempt in 1...Self.windowManagerStarts {
            let ended = Flag()
            programs.start("/usr/bin/openbox", attempt == 1 ? [] : ["--replace"], environment: environment) { status in
                ended.set()
            }
            let deadline = ContinuousClock.now + .seconds(15)
            var check = ""
            while ContinuousClock.now < deadline, !ended.isSet {
                check = try await windowManagerCheck()
                if check.contains("\"Openbox\"") { return }
                try await Task.sleep(for: .milliseconds(25))
            }
            seen.append("start \(attempt): \(ended.isSet ? "openbox ended" : "no check window") (\(check))")
        }
        throw XDesktopError.windowManager("openbox never came up on \(display): \(seen.joined(separator: "; "))")
    }

    /// Starts openbox again, saying so on standard error (with what it was seen doing) for
    /// whoever reads a slow test's log.
    private func restartWindowManager(because reason: String) async throws {
        let seen = try await windowManagerCheck()
        FileHandle.standardError.write(Data("XDesktop \(display): openbox started again: \(reason); \(seen)\n".utf8))
        try await startWindowManager()
    }

    /// What the root's `_NET_SUPPORTING_WM_CHECK` names, and that window's `_NET_WM_NAME`.
    private func windowManagerCheck() async throws -> String {
        let root = try await Command.run(
            "/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: environment
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = root.split(separator: "#").last?.trimmingCharacters(in: .whitespaces), id.hasPrefix("0x") else {
            return root
        }
        let name = try await Command.run("/usr/bin/xprop", ["-id", id, "_NET_WM_NAME"], environment: environment)
        return root + ", " + name.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether openbox manages `window` (it sets `WM_STATE` on every window it manages).
    private func managed(_ window: String) async throws -> Bool {
        try await Command.run("/usr/bin/xprop", ["-id", window, "WM_STATE"], environment: environment).stdout
            .contains("window state:")
    }

    /// The window openbox says is active (`_NET_ACTIVE_WINDOW`), as xdotool prints it; "" for none.
    public func activeWindow() async throws -> String {
        try await Command.run("/usr/bin/xdotool", ["getactivewindow"], environment: environment).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
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

    /// A window of class `name`, once mapped and managed by openbox (started again if it does
    /// not take the window within 15 s): its id.
    public func window(class name: String) async throws -> String {
        start("/usr/bin/xterm", ["-class", name, "-title", "\(name) window", "-e", "sleep", "1000"])
        let found = try await xdotool(["search", "--sync", "--onlyvisible", "--class", name]).split(separator: "\n")
        let id = String(try #require(found.first))
        for attempt in 1...Self.windowManagerStarts {
            let deadline = ContinuousClock.now + .seconds(15)
            while ContinuousClock.now < deadline {
                if try await managed(id) { return id }
                try await Task.sleep(for: .milliseconds(25))
            }
            // Openbox takes every window already mapped when it starts.
            if attempt < Self.windowManagerStarts {
                try await restartWindowManager(because: "it does not manage window \(id) (\(name))")
            }
        }
        throw XDesktopError.windowManager(
            "openbox does not manage window \(id) (\(name)) on \(display): \(try await windowManagerCheck())")
    }

    /// Gives `window` (of class `name`) the focus and waits until openbox says a window of that
    /// class is the active one: activation is asked for again meanwhile, a click added after a
    /// few requests (a window just mapped may not take the first), and openbox started again
    /// when it publishes no active window at all. `activate` asks once, without waiting, for a
    /// caller whose window may be moved away as soon as it is focused.
    public func focus(_ window: String, class name: String, timeout: Duration = .seconds(30)) async throws {
        var seen = ""
        var restarted = false
        let start = ContinuousClock.now
        var tries = 0
        while ContinuousClock.now - start < timeout {
            tries += 1
            try await activate(window)
            if tries > 3 {
                // A click gives the focus where the window manager let a request pass unheeded.
                _ = try await Command.run(
                    "/usr/bin/xdotool", ["mousemove", "--window", window, "20", "20", "click", "1"],
                    environment: environment)
            }
            try await Task.sleep(for: .milliseconds(100))
            let active = try await activeWindow()
            seen = active.isEmpty ? "no window" : active
            if !active.isEmpty {
                let classes = try await Command.run(
                    "/usr/bin/xprop", ["-id", active, "WM_CLASS"], environment: environment)
                seen += ": " + classes.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if classes.stdout.contains("\"\(name)\"") { return }
            } else if !restarted, ContinuousClock.now - start > timeout / 3 {
                // Openbox has published no active window for a third of the time: it is started
                // again (it takes the windows already there), once.
                restarted = true
                try await restartWindowManager(because: "it publishes no active window (\(tries) requests for \(name))")
            }
        }
        throw XDesktopError.windowManager(
            "window \(window) (\(name)) never got the focus on \(display)\(restarted ? ", openbox started again" : ""); "
                + "the active one: \(seen); the window manager: \(try await windowManagerCheck())")
    }

    /// Asks openbox to give `window` the focus, without waiting for it.
    public func activate(_ window: String) async throws {
        _ = try await Command.run("/usr/bin/xdotool", ["windowactivate", window], environment: environment)
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

    public enum XDesktopError: Error, CustomStringConvertible {
        case noServer
        /// Openbox does not work on this desktop: what was seen.
        case windowManager(String)

        public var description: String {
            switch self {
            case .noServer: "no X server could be started on a free display"
            case .windowManager(let seen): seen
            }
        }
    }
}
