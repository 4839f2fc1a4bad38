import Foundation
import ScreenMatesSources
import Testing

/// A private tmux server (its own `-L` socket) for the terminal source's tests; killed when
/// the value goes away.
final class TmuxServer {
    let socket = "sm-src-" + UUID().uuidString.prefix(8)
    static let tmux = "/usr/bin/tmux"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: tmux) }

    /// Runs a tmux command and returns what it printed. A command that starts the server
    /// (`new-session`) is not read: the server would hold the pipe open.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let starts = arguments.first == "new-session"
        let result = ChildProcess.run(
            Self.tmux, ["-L", socket, "-f", "/dev/null"] + arguments, capture: !starts,
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"])
        let (status, output) = try #require(result, "tmux did not start")
        try #require(status == 0, "tmux \(arguments) exited with \(status)")
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        _ = ChildProcess.run(Self.tmux, ["-L", socket, "kill-server"], capture: false)
    }
}
