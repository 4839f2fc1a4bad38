import Foundation
import Synchronization

/// The product's one way off Swift's cooperative pool: a task executor with a thread of its own
/// (an `OwnedThread`), for work that blocks or sleeps in the kernel — the monitor's sampling
/// loop (`run(name:_:)`), the shared file's lock and SQLite opening it (`blocking`), a child
/// process's pipes, and async work a blocked caller waits for (`run(name:_:)` without `await`).
/// The pool has as many threads as the machine has cores, two here: a thread of it held in a
/// blocking call holds up every task. `.ci/check-blocking` keeps blocking calls to the places
/// that run on threads of their own.
///
/// Each use owns one: start the thread, run the work there, end and join the thread.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var serving: pthread_t?
    private var thread: OwnedThread?

    /// Starts the thread, named `name`.
    public init(name: String) {
        thread = OwnedThread(name: name) { [self] in serve() }
    }

    /// Runs `operation` on a new executor's thread, blocking the calling thread until it has
    /// returned and the thread is gone: for a caller that cannot await (a `deinit`, a synchronous
    /// benchmark), which may be holding a thread of the pool.
    public static func run<T: Sendable>(name: String, _ operation: @escaping @Sendable () async -> T) -> T {
        let executor = ThreadExecutor(name: name)
        let outcome = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            let value = await operation()
            outcome.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        executor.finish()
        return outcome.withLock { $0! }
    }

    /// Runs `body` with its work (and what it awaits, unless that names an executor of its own)
    /// on a new executor's thread; returns once it has, and the thread is gone.
    public static func run<T: Sendable>(name: String, _ body: (ThreadExecutor) async -> T) async -> T {
        let executor = ThreadExecutor(name: name)
        let result = await withTaskExecutorPreference(executor) { await body(executor) }
        await executor.finished()
        return result
    }

    /// Runs the blocking `work` on a thread of its own and returns what it gave, without holding
    /// a thread of the pool meanwhile.
    public static func blocking<T: Sendable, Failure: Error>(
        name: String, _ work: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let outcome = Mutex<Result<T, Failure>?>(nil)
        let thread = OwnedThread(name: name) {
            let result: Result<T, Failure>
            do throws(Failure) { result = .success(try work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
        }
        await thread.join()
        return try outcome.withLock { $0! }.get()
    }

    /// Whether the caller runs on this executor's thread.
    public var isCurrent: Bool {
        condition.withLock { serving.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Runs what is queued, then ends the thread and joins it. Only once the work given to it
    /// has ended (nothing more may be queued).
    public func finish() {
        endServing()
        thread?.joinBlocking()
    }

    /// `finish`, awaiting the thread's end instead of blocking on it.
    public func finished() async {
        endServing()
        await thread?.join()
    }

    private func endServing() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    private func serve() {
        condition.withLock { serving = pthread_self() }
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
