import Foundation
import Glibc
import ScreenMatesWatch
import Synchronization
import Testing

/// The one executor for blocking work: its work runs on its own thread, comes back there after
/// what it awaits, and `run` and `blocking` return only once that thread has ended.
@Suite struct ThreadExecutorTests {
    @Test func theWorkRunsAndBlocksOnItsOwnThread() async {
        let caller = pthread_self()
        let (elsewhere, current, stayed) = await ThreadExecutor.run(name: "test-run") { thread -> (Bool, Bool, Bool) in
            let mine = pthread_self()
            _ = poll(nil, 0, 20)  // As the sampling loop sleeps: in the kernel, on this thread.
            return (pthread_equal(mine, caller) == 0, thread.isCurrent, pthread_equal(mine, pthread_self()) != 0)
        }
        #expect(elsewhere, "the work runs on a thread of its own")
        #expect(current, "which it can tell")
        #expect(stayed, "and blocks there, not on the shared pool")
    }

    @Test func awaitedWorkComesBackToTheThread() async throws {
        let results = await ThreadExecutor.run(name: "test-back") { thread -> [Bool] in
            let mine = pthread_self()
            var back: [Bool] = []
            for _ in 0..<3 {
                // A child task (as a tmux query awaits one) and back.
                _ = await Task { 42 }.value
                back.append(pthread_equal(mine, pthread_self()) != 0 && thread.isCurrent)
            }
            return back
        }
        #expect(results == [true, true, true])
    }

    struct Refused: Error, Equatable {}

    final class Flag: Sendable {
        let value = Mutex(false)
    }

    /// Blocking work, as the shared file's lock waits: never on the caller's thread, its value
    /// or its error given back.
    @Test func blockingWorkRunsOffThePoolAndGivesBackWhatItGave() async throws {
        let caller = pthread_self()
        let elsewhere = await ThreadExecutor.blocking(name: "test-block") { () -> Bool in
            pthread_equal(pthread_self(), caller) == 0
        }
        #expect(elsewhere)
        await #expect(throws: Refused()) {
            try await ThreadExecutor.blocking(name: "test-refuse") { () throws(Refused) -> Int in throw Refused() }
        }
    }

    /// More blocking waits than the pool has threads, each until a task of the pool lets it go:
    /// on threads of their own they leave the pool to that task. (Run on the pool, as the shared
    /// file's lock once waited, they would hold every thread of it, and each would give up.)
    @Test func blockingWorkLeavesThePoolFree() async {
        let released = Flag()
        let waits = ProcessInfo.processInfo.activeProcessorCount + 2
        let freed = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<waits {
                group.addTask {
                    await ThreadExecutor.blocking(name: "test-wait\(index)") { () -> Bool in
                        for _ in 0..<1000 {
                            if released.value.withLock({ $0 }) { return true }
                            _ = poll(nil, 0, 10)
                        }
                        return false
                    }
                }
            }
            group.addTask {
                await Task.yield()
                released.value.withLock { $0 = true }
                return true
            }
            return await group.reduce(into: 0) { count, freed in count += freed ? 1 : 0 }
        }
        #expect(freed == waits + 1)
    }
}
