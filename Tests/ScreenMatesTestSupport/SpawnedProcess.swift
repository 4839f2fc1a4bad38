import Foundation
import Glibc
import Subprocess
import Synchronization
import SystemPackage
import Testing

/// A program running beside a test, started through swift-subprocess, whose standard output and
/// error are collected line by line as they arrive, each line with the moment it was read.
///
/// Every child a test starts goes through here (`Command` runs one to its end): a clean signal
/// mask and default handlers, as a shell would start it, standard input from /dev/null, pipes
/// no other child inherits, and a child in the test runner's process group, so that whatever
/// stops the runner as a group (`timeout` in CI) stops it too. The process is run by a task of
/// this object's, which reaps it; `wait` awaits its end. Signals go through swift-subprocess,
/// and only while the process has not been reaped (its pid may belong to another process
/// afterwards). A process still running when its `SpawnedProcess` goes away (a test that failed
/// half-way) is killed.
public final class SpawnedProcess: Sendable {
    /// The program and its arguments, for messages.
    public let command: [String]
    public let pid: pid_t
    private let output: Output
    private let signals: AsyncStream<Int32>.Continuation
    private let ending: Ending

    /// Starts `path` with `arguments`, returning once it runs (throwing when it cannot be
    /// started). With `shell`, runs `/bin/bash -c shell` instead (for `ulimit` and `trap`),
    /// with the program's path and arguments appended as `$0 $@`. With `capture` false, what it
    /// writes is read and dropped (a program that leaves a daemon holding its output open, such
    /// as `tmux new-session -d`, still ends: reading stops when the child itself ends).
    /// `environment` replaces the test runner's.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, shell: String? = nil,
        capture: Bool = true
    ) async throws {
        let program = shell == nil ? path : "/bin/bash"
        let argv = shell.map { ["-c", $0, path] + arguments } ?? arguments
        command = [program] + argv
        let output = Output(capture: capture)
        let ending = Ending()
        let (requests, signals) = AsyncStream.makeStream(of: Int32.self)
        self.output = output
        self.ending = ending
        self.signals = signals
        // As bytes, each ending in NUL: swift-subprocess hands each to `strdup`, and a name that
        // is not a valid `Environment.Key` (which the string form would need) is passed on too.
        let variables = (environment ?? ProcessInfo.processInfo.environment).map {
            Array("\($0.key)=\($0.value)".utf8) + [0]
        }
        pid = try await withCheckedThrowingContinuation { (started: CheckedContinuation<pid_t, any Error>) in
            // The continuation is resumed once: with the pid when the process runs, or with why
            // it could not be started.
            let resumed = Mutex(false)
            let resume = { @Sendable (outcome: Result<pid_t, any Error>) in
                if resumed.withLock({ resumed in
                    defer { resumed = true }
                    return !resumed
                }) {
                    started.resume(with: outcome)
                }
            }
            // Ended with the process, after it was reaped: `ending` says so to `wait`.
            Task {
                do {
                    let result = try await Subprocess.run(
                        .path(FilePath(program)), arguments: Arguments(argv), environment: .custom(variables),
                        input: .none, output: .sequence, error: .sequence
                    ) { execution in
                        resume(.success(execution.processIdentifier.value))
                        await Self.serve(execution, output: output, requests: requests)
                    }
                    ending.end(Self.exitStatus(result.terminationStatus))
                } catch {
                    resume(.failure(error))
                    ending.end(127)
                }
            }
        }
    }

    deinit {
        if !hasEnded { kill(SIGKILL) }
        signals.finish()
    }

    /// Reads both pipes and passes on the signals asked for, until the process has ended and
    /// its pipes are read.
    private static func serve(
        _ execution: Execution<NoInput, SequenceOutput, SequenceOutput>, output: Output,
        requests: AsyncStream<Int32>
    ) async {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await output.read(execution.standardOutput, error: false)
                return true
            }
            group.addTask {
                await output.read(execution.standardError, error: true)
                return true
            }
            group.addTask {
                for await signal in requests { try? execution.send(signal: Signal(rawValue: signal)) }
                return false
            }
            var read = 0
            while let reader = await group.next() {
                if reader { read += 1 }
                // Both pipes read to their end: the process has ended; no signal may follow.
                if read == 2 { group.cancelAll() }
            }
        }
    }

    public var lines: [String] { output.lines.map(\.text) }
    public var timedLines: [(at: ContinuousClock.Instant, text: String)] { output.lines }
    /// Everything written to standard output, as written.
    public var standardOutput: String { output.text(error: false) }
    public var standardError: String { output.text(error: true) }

    /// Sends `signal` to the process, unless it has ended.
    public func kill(_ signal: Int32 = SIGKILL) { signals.yield(signal) }

    /// Waits for the process to end and returns its exit status (128 + signal when killed).
    ///
    /// A process still running after `timeout` seconds is killed (SIGKILL) and the test gets an
    /// issue naming it and showing what it printed; the status returned is then the kill's
    /// (137). Cancelling the test kills it too.
    @discardableResult
    public func wait(timeout: TimeInterval = 60, sourceLocation: SourceLocation = #_sourceLocation) async -> Int32? {
        if let status = await end(within: .seconds(timeout)) { return status }
        kill(SIGKILL)
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
        if let status = await end(within: .seconds(Self.afterKillLimit)) { return status }
        if !Task.isCancelled {
            Issue.record(
                "`\(command.joined(separator: " "))` was killed, and its end was not reported within \(Self.afterKillLimit) s",
                sourceLocation: sourceLocation)
        }
        return nil
    }

    /// How long a killed process's end may take to be reported: it is reported once both its
    /// pipes are read to their end, which a grandchild still holding them can put off for ever.
    public static let afterKillLimit: TimeInterval = 15

    /// The exit status once the process has ended within `limit`; nil when it has not (it is
    /// left running) or the caller was cancelled.
    func end(within limit: Duration) async -> Int32? {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await self.ending.wait(cancellable: true) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Whether the process has ended.
    public var hasEnded: Bool { ending.status != nil }

    public var exitStatus: Int32? { ending.status }

    /// A shell's `$?`: the exit status, or 128 + the signal that ended the process.
    static func exitStatus(_ status: TerminationStatus) -> Int32 {
        switch status {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    /// What the process wrote: its bytes as they came, and its output's lines with when each
    /// was read.
    private final class Output: Sendable {
        private struct Collected {
            var out: [UInt8] = []
            var err: [UInt8] = []
            var pending: [UInt8] = []
            var lines: [(at: ContinuousClock.Instant, text: String)] = []
        }

        let capture: Bool
        private let collected = Mutex(Collected())

        init(capture: Bool) { self.capture = capture }

        func read(_ sequence: SubprocessOutputSequence, error: Bool) async {
            do {
                for try await buffer in sequence {
                    guard capture else { continue }
                    let bytes = buffer.withUnsafeBytes { Array($0) }
                    append(bytes, error: error, at: .now)
                }
            } catch {
                // The pipe failed: what came before it is kept.
            }
            if !error { finishLine() }
        }

        private func append(_ bytes: [UInt8], error: Bool, at instant: ContinuousClock.Instant) {
            collected.withLock { collected in
                guard !error else {
                    collected.err += bytes
                    return
                }
                collected.out += bytes
                collected.pending += bytes
                while let newline = collected.pending.firstIndex(of: 10) {
                    collected.lines.append(
                        (instant, String(decoding: collected.pending[..<newline], as: UTF8.self)))
                    collected.pending.removeSubrange(...newline)
                }
            }
        }

        /// A last line without its newline is a line too.
        private func finishLine() {
            collected.withLock { collected in
                guard !collected.pending.isEmpty else { return }
                collected.lines.append((.now, String(decoding: collected.pending, as: UTF8.self)))
                collected.pending = []
            }
        }

        var lines: [(at: ContinuousClock.Instant, text: String)] { collected.withLock { $0.lines } }

        func text(error: Bool) -> String {
            collected.withLock { String(decoding: error ? $0.err : $0.out, as: UTF8.self) }
        }
    }

    /// The process's end, and who waits for it.
    private final class Ending: Sendable {
        private struct State {
            var status: Int32?
            var next: UInt64 = 0
            var waiters: [UInt64: CheckedContinuation<Int32?, Never>] = [:]
        }

        private let state = Mutex(State())

        var status: Int32? { state.withLock { $0.status } }

        func end(_ status: Int32) {
            let waiters = state.withLock { state in
                defer { state.waiters = [:] }
                if state.status == nil { state.status = status }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(returning: status) }
        }

        /// The exit status once the process has ended; nil when `cancellable` and the caller
        /// was cancelled first.
        func wait(cancellable: Bool) async -> Int32? {
            let id = state.withLock { state in
                defer { state.next += 1 }
                return state.next
            }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Int32?, Never>) in
                    let now = state.withLock { state -> Int32?? in
                        if let status = state.status { return .some(status) }
                        if cancellable && Task.isCancelled { return .some(nil) }
                        state.waiters[id] = continuation
                        return nil
                    }
                    if let now { continuation.resume(returning: now) }
                }
            } onCancel: {
                guard cancellable else { return }
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
            }
        }
    }
}
