import Foundation
import ScreenMatesTestSupport
import Testing

/// A private tmux server (its own `-L` socket) for the terminal source's tests; killed when
/// the scope `with` opens ends.
struct TmuxServer: Sendable {
    let socket = "sm-src-" + UUID().uuidString.prefix(8)
    static let tmux = "/usr/bin/tmux"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: tmux) }

    /// Runs `body` with new servers (as many as `count`), killed afterwards.
    static func with<T>(_ count: Int = 1, _ body: ([TmuxServer]) async throws -> T) async throws -> T {
        let servers = (0..<count).map { _ in TmuxServer() }
        do {
            let result = try await body(servers)
            for server in servers.reversed() { await server.kill() }
            return result
        } catch {
            for server in servers.reversed() { await server.kill() }
            throw error
        }
    }

    /// Runs a tmux command and returns what it printed. A command that starts the server
    /// (`new-session`) is not read: the server would hold the pipe open.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let result = try await Command.run(
            Self.tmux, ["-L", socket, "-f", "/dev/null"] + arguments,
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"],
            capture: arguments.first != "new-session")
        try #require(result.status == 0, "tmux \(arguments) ended with \(result.status)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func kill() async {
        _ = try? await Command.run(Self.tmux, ["-L", socket, "kill-server"], environment: [:], capture: false)
    }
}
