import Foundation
import Glibc
import Synchronization

/// Runs a program to its end (a `SpawnedProcess`), bounded by a time limit: a child that outlives
/// its limit is killed (SIGKILL), and the call throws `Command.TimedOut` with what the child
/// printed so far.
public enum Command {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// A child that did not end within its limit. It was killed (SIGKILL); the description
    /// names it and shows what it had printed.
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: [String]
        public var limit: TimeInterval
        public var stdout: String
        public var stderr: String

        public var description: String {
            """
            `\(command.joined(separator: " "))` did not end within \(limit) s and was killed (SIGKILL).
            --- its standard output so far:
            \(stdout)
            --- its standard error so far:
            \(stderr)
            """
        }
    }

    /// Generous: a child that needs longer than this is stuck, not slow.
    public static let defaultTimeout: TimeInterval = 120

    /// Runs `path` with `arguments` (in `environment`, else the test runner's). With `capture`
    /// false, what it writes is dropped (for programs that leave a daemon holding their output
    /// open, like `tmux new-session -d`). Throws `TimedOut` when the child outlives `timeout`
    /// seconds, and `CancellationError` (after killing the child) when the test's task is
    /// cancelled.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, capture: Bool = true,
        timeout: TimeInterval = defaultTimeout
    ) async throws -> Result {
        let child = try await SpawnedProcess(path, arguments, environment: environment, capture: capture)
        let status = await withTaskCancellationHandler {
            await child.end(within: .seconds(timeout))
        } onCancel: {
            child.kill()
        }
        guard let status else {
            child.kill()
            // A child whose end is never reported (a grandchild holding its pipes) must not hold
            // the test for ever either.
            _ = await child.end(within: .seconds(SpawnedProcess.afterKillLimit))
            try Task.checkCancellation()
            throw TimedOut(
                command: child.command, limit: timeout, stdout: child.standardOutput, stderr: child.standardError)
        }
        try Task.checkCancellation()
        return Result(status: status, stdout: child.standardOutput, stderr: child.standardError)
    }
}
