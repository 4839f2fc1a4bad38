import Foundation
import Synchronization

/// A task executor with a thread of its own (an `OwnedThread`), for async work that a blocked
/// thread waits for: a caller that cannot await (a `deinit`, a synchronous benchmark) runs the
/// work here and waits, without needing a thread of the shared pool, which it may be holding.
///
/// `run` is the whole life of one: start the thread, run the work there, wait for it, end and
/// join the thread.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var thread: OwnedThread?

    /// Starts the thread, named `name`.
    public init(name: String) {
        thread = OwnedThread(name: name) { [self] in serve() }
    }

    /// Runs `operation` on a new executor's thread, blocking the calling thread until it has
    /// returned and the thread is gone.
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
        condition.withLock {
            finished = true
            condition.signal()
        }
        thread?.joinBlocking()
    }

    private func serve() {
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
