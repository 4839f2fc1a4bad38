import Foundation
import ScreenMatesWatch
import Subprocess
import Synchronization
import SystemPackage

/// A program started by the benchmark through swift-subprocess, whose standard output lines are
/// read as they come, each with the moment it arrived; standard input and error are /dev/null.
///
/// The benchmark's steps are synchronous (they read a pseudo-terminal while the program runs),
/// so the program is run by a task on a thread of its own (`ThreadExecutor`): lines are read
/// there as they arrive, signals are sent from there while the program has not been reaped,
/// and `wait` ends and joins that thread.
final class ChildProcess: Sendable {
    let pid: pid_t
    private let executor: ThreadExecutor
    private let run: Run
    private let signals: AsyncStream<Int32>.Continuation

    /// What the task running the program shares with the benchmark.
    private final class Run: Sendable {
        let received = Mutex<[(at: ContinuousClock.Instant, line: String)]>([])
        /// Signalled once the program has ended and been reaped.
        let ended = DispatchSemaphore(value: 0)
        let status = Mutex<Int32?>(nil)
    }

    init(_ program: String, _ arguments: [String], environment: [String: String]) throws {
        let executor = ThreadExecutor(name: "bench-child")
        self.executor = executor
        let started = DispatchSemaphore(value: 0)
        let spawned = Mutex<Result<pid_t, any Error>?>(nil)
        let run = Run()
        self.run = run
        let (requests, signals) = AsyncStream.makeStream(of: Int32.self)
        self.signals = signals
        Task(executorPreference: executor) {
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(program)), arguments: Arguments(arguments),
                    environment: .custom(Self.variables(environment)), input: .none,
                    output: .sequence, error: .discarded
                ) { execution in
                    spawned.withLock { $0 = .success(execution.processIdentifier.value) }
                    started.signal()
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await signal in requests { try? execution.send(signal: Signal(rawValue: signal)) }
                        }
                        var pending: [UInt8] = []
                        do {
                            for try await buffer in execution.standardOutput {
                                let now = ContinuousClock.now
                                pending += buffer.withUnsafeBytes { Array($0) }
                                while let newline = pending.firstIndex(of: 10) {
                                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                                    pending.removeSubrange(...newline)
                                    run.received.withLock { $0.append((now, line)) }
                                }
                            }
                        } catch {
                            // The pipe failed: the lines before it are kept.
                        }
                        // Read to its end: the program has ended, and no signal may follow.
                        group.cancelAll()
                    }
                }
                run.status.withLock { $0 = Self.exitStatus(result.terminationStatus) }
            } catch {
                let first = spawned.withLock { spawned -> Bool in
                    guard spawned == nil else { return false }
                    spawned = .failure(error)
                    return true
                }
                if first { started.signal() }
                run.status.withLock { $0 = $0 ?? 127 }
            }
            run.ended.signal()
        }
        started.wait()
        do {
            pid = try spawned.withLock { $0! }.get()
        } catch {
            run.ended.wait()
            executor.finish()
            throw error
        }
    }

    deinit { signals.finish() }

    var lines: [(at: ContinuousClock.Instant, line: String)] { run.received.withLock { $0 } }

    /// Sends `signal` to the program, unless it has ended.
    func send(_ signal: Int32) { signals.yield(signal) }

    /// Waits for the program to end; returns its exit status (128 + the signal that ended it).
    @discardableResult
    func wait() -> Int32 {
        run.ended.wait()
        run.ended.signal()
        executor.finish()
        return run.status.withLock { $0 ?? 127 }
    }

    /// Runs `program` to its end, its output to /dev/null and what it says on standard error
    /// to the benchmark's; returns its exit status.
    static func run(_ program: String, _ arguments: [String], _ environment: [String: String]) throws -> Int32 {
        try ThreadExecutor.run(name: "bench-run") { () -> Result<Int32, any Error> in
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(program)), arguments: Arguments(arguments),
                    environment: .custom(Self.variables(environment)),
                    output: .discarded, error: .fileDescriptor(.standardError, closeAfterSpawningProcess: false))
                return .success(exitStatus(result.terminationStatus))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// The environment as swift-subprocess takes it in bytes: `NAME=value`, each ending in NUL
    /// (it hands each to `strdup`).
    static func variables(_ environment: [String: String]) -> [[UInt8]] {
        environment.map { Array("\($0.key)=\($0.value)".utf8) + [0] }
    }

    /// A shell's `$?`.
    static func exitStatus(_ status: TerminationStatus) -> Int32 {
        switch status {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}
