import Foundation
import Glibc
import Testing

/// A program running beside the test, whose standard output and error are collected line by
/// line as they arrive, each line with the moment it was read.
///
/// Threads of its own read the pipes and wait for the exit, so nothing here blocks the test
/// runner's threads: `wait` is awaited. A process still running when its `SpawnedProcess` goes
/// away (a test that failed half-way) is killed.
final class SpawnedProcess: Sendable {
    let pid: pid_t
    /// The program and its arguments, for messages.
    let command: [String]
    private let state: State

    /// What the reader and reaper threads share with the test.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var outLines: [(at: ContinuousClock.Instant, text: String)] = []
        private var errText = ""
        private var finished: Int32?
        /// Set (under the lock) just before the process is reaped: its pid may be reused then.
        private var reaping = false

        func locked<T>(_ body: () -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }

        func appendLine(_ line: String) { locked { outLines.append((ContinuousClock.now, line)) } }
        func appendError(_ line: String) { locked { errText += line + "\n" } }
        var lines: [(at: ContinuousClock.Instant, text: String)] { locked { outLines } }
        var standardError: String { locked { errText } }
        var exitStatus: Int32? { locked { finished } }
        func finish(_ status: Int32) { locked { finished = status } }

        /// Signals the process, unless it was reaped.
        func signal(_ pid: pid_t, _ signal: Int32) {
            locked {
                guard !reaping else { return }
                Glibc.kill(pid, signal)
            }
        }

        /// Reaps `pid`, which has ended (waitid with WNOWAIT said so), under the lock.
        func reap(_ pid: pid_t) -> Int32 {
            locked {
                reaping = true
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return status
            }
        }
    }

    /// Starts `path` with `arguments`. With `shell`, runs `/bin/bash -c shell` instead (for
    /// `ulimit` and `trap`), with the program's path and arguments appended as `$0 $@`.
    init(_ path: String, _ arguments: [String], environment: [String: String]? = nil, shell: String? = nil) throws {
        let program = shell == nil ? path : "/bin/bash"
        let argv = shell.map { ["-c", $0, path] + arguments } ?? arguments
        command = [program] + argv
        let started = try Spawn.start(
            program, argv, environment: environment ?? ProcessInfo.processInfo.environment, output: .pipes)
        pid = started.pid
        let state = State()
        self.state = state
        let readersDone = DispatchGroup()
        readersDone.enter()
        readersDone.enter()
        let outFD = started.outFD
        let errFD = started.errFD
        Thread.detachNewThread {
            Self.readLines(outFD) { state.appendLine($0) }
            readersDone.leave()
        }
        Thread.detachNewThread {
            Self.readLines(errFD) { state.appendError($0) }
            readersDone.leave()
        }
        let pid = started.pid
        Thread.detachNewThread {
            // Wait for the end without reaping, so that the pid stays this process's until the
            // lock says it is going.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            let status = state.reap(pid)
            // What the process wrote before it ended is read before its end is recorded; a
            // grandchild holding the pipes open delays that for a moment only.
            _ = readersDone.wait(timeout: .now() + 5)
            state.finish(Spawn.exitStatus(status))
        }
    }

    deinit {
        if state.exitStatus == nil { state.signal(pid, SIGKILL) }
    }

    private static func readLines(_ fd: Int32, _ handle: (String) -> Void) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 10) {
                handle(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { handle(String(decoding: pending, as: UTF8.self)) }
        close(fd)
    }

    var lines: [String] { state.lines.map(\.text) }
    var timedLines: [(at: ContinuousClock.Instant, text: String)] { state.lines }
    var standardError: String { state.standardError }

    /// Sends `signal` to the process, unless it has ended.
    func kill(_ signal: Int32 = SIGKILL) { state.signal(pid, signal) }

    /// Waits for the process to end and returns its exit status (128 + signal when killed).
    ///
    /// A process still running after `timeout` seconds is killed (SIGKILL) and the test gets an issue naming it and showing what it printed; the status
    /// returned is then the kill's (137). Cancelling the test kills it too.
    @discardableResult
    func wait(timeout: TimeInterval = 60, sourceLocation: SourceLocation = #_sourceLocation) async -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while clock.now < deadline {
            if let done = state.exitStatus { return done }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                break
            }
        }
        if let done = state.exitStatus { return done }
        state.signal(pid, SIGKILL)
        if !Task.isCancelled {
            Issue.record(
                """
                `\(command.joined(separator: " "))` did not end within \(timeout) s and was killed (SIGKILL).
                --- its standard output so far:
                \(lines.joined(separator: "\n"))
                --- its standard error so far:
                \(standardError)
                """, sourceLocation: sourceLocation)
        }
        // The reaper records the kill at once.
        let reaped = ContinuousClock.now + .seconds(10)
        while state.exitStatus == nil && ContinuousClock.now < reaped { usleep(1000) }
        return state.exitStatus
    }

    /// Whether the process has ended.
    var hasEnded: Bool { state.exitStatus != nil }

    var exitStatus: Int32? { state.exitStatus }
}
