import Foundation
import Testing

/// A private tmux server running one shell pane, driven the way a person would: keys in,
/// screen text out. Each session has its own socket, so tests run side by side.
final class Tmux {
    let socket = "sm-e2e-" + UUID().uuidString.prefix(8)
    let width: Int
    let height: Int

    init(width: Int = 120, height: Int = 40, environment: [String: String] = [:]) throws {
        self.width = width
        self.height = height
        var env = ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no"]
        env.merge(environment) { _, new in new }
        let exports = env.map { "\($0.key)=\($0.value)" }
        // The server outlives this call and would hold an output pipe open: read nothing from it.
        try run(
            ["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "env"] + exports + [
                "bash", "--norc", "--noprofile",
            ],
            capture: false)
        try run(["set-option", "-g", "status", "off"])
    }

    deinit {
        _ = try? run(["kill-server"], capture: false)
        unlink("/tmp/tmux-\(getuid())/\(socket)")
    }

    /// Types a command line and presses Enter.
    func type(_ line: String) throws {
        try run(["send-keys", "-l", line])
        try run(["send-keys", "Enter"])
    }

    /// Sends tmux key names (`q`, `Escape`, `C-c`, `Down`).
    func keys(_ names: String...) throws {
        try run(["send-keys"] + names)
    }

    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pane's text now (with `-e`, its colour and attribute escapes).
    func screen(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
    }

    /// Waits until the screen satisfies `condition`; returns the last screen either way.
    @discardableResult
    func waitFor(timeout: TimeInterval = 10, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return last
    }

    /// Waits until `text` is on the screen; a timeout is a test failure (showing the screen).
    @discardableResult
    func waitFor(
        _ text: String, timeout: TimeInterval = 10, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let screen = try waitFor(timeout: timeout) { $0.contains(text) }
        if !screen.contains(text) {
            Issue.record("\"\(text)\" did not appear within \(timeout) s:\n\(screen)", sourceLocation: sourceLocation)
        }
        return screen
    }

    /// The process id of the program running in the pane's shell (its first child).
    func childPID(named name: String) throws -> Int32? {
        let panePID = try run(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(panePID)/task/\(panePID)/children", encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ Int32($0) }) {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if comm.hasPrefix(name.prefix(15)) { return pid }
        }
        return nil
    }

    /// tmux starts from a small, explicit environment: the test runner's own (which `swift test`
    /// gives NO_COLOR, for one) must not leak into the panes.
    static let environment: [String: String] = {
        let inherited = ProcessInfo.processInfo.environment
        var env = [
            "PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp", "LANG": "C.UTF-8",
        ]
        env["TMPDIR"] = inherited["TMPDIR"]
        return env
    }()

    @discardableResult
    private func run(_ arguments: [String], capture: Bool = true) throws -> String {
        try Command.run(
            "/usr/bin/tmux", ["-L", String(socket), "-f", "/dev/null"] + arguments, environment: Self.environment,
            capture: capture
        ).stdout
    }
}
