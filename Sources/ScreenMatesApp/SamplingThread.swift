import Foundation
import Glibc
import ScreenMatesWatch

/// The thread a sampling follower runs its loop on, sleeping in the kernel between samples.
///
/// Waking once a second with `Task.sleep` on Swift's shared pool costs about 210 µs of CPU a
/// wake-up (a timer and hand-offs between the pool's threads); on a thread of its own that
/// sleeps in the kernel, about 45 µs (both measured in a release build on this kind of
/// machine): the difference is most of what following costs. The thread is the follower's:
/// `run` starts it, runs the loop on it as a task executor, and ends and joins it before it
/// returns; nothing else runs there but the loop and the tasks it awaits (a tmux query). It
/// sleeps in `poll` on the stop's pipe, so a stop wakes it at once.
final class SamplingThread: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var serving: pthread_t?

    private init() {}

    /// Runs `body` with its work on a new thread; returns once it has, and the thread ended.
    static func run<T: Sendable>(_ body: (SamplingThread) async -> T) async -> T {
        let executor = SamplingThread()
        let thread = OwnedThread(name: "sampling") { executor.serve() }
        let result = await withTaskExecutorPreference(executor) { await body(executor) }
        executor.finish()
        await thread.join()
        return result
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Sleeps for `duration`, or until `stop` is requested: on this thread in `poll`, or with
    /// `Task.sleep` (cancelled by the stop) when called elsewhere.
    func sleep(for duration: Duration, until stop: StopRequest) async {
        let onThisThread = condition.withLock { serving.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        guard onThisThread else {
            await stop.cancelling { try? await Task.sleep(for: duration) }
            return
        }
        _ = stop.sleep(for: duration)
    }

    private func serve() {
        condition.withLock { serving = pthread_self() }
        while true {
            condition.lock()
            while jobs.isEmpty, !finished { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }
}
