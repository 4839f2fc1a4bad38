import Foundation
import Synchronization

/// The owner of the tasks a session starts — the demo monitor, the group link, group actions:
/// each is kept until it ends, and `finish` cancels those still running and waits for them, so
/// nothing a session started outlives it and nothing runs without an owner.
///
/// The tasks run on the shared pool, never on the thread that started them: the dashboard's
/// loop holds the main thread while it waits for the terminal.
package final class BackgroundTasks: Sendable {
    private struct Running: Sendable {
        var next: UInt64 = 0
        var tasks: [UInt64: Task<Void, Never>] = [:]
    }

    private let running = Mutex(Running())

    package init() {}

    /// Starts `operation`; the returned task may be cancelled by whoever started it, and is
    /// awaited by `finish` either way.
    @discardableResult
    package func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        running.withLock { running in
            let id = running.next
            running.next += 1
            // The task takes the lock to leave the list only once it is in it.
            let task = Task(executorPreference: globalConcurrentExecutor) { [self] in
                await operation()
                _ = self.running.withLock { $0.tasks.removeValue(forKey: id) }
            }
            running.tasks[id] = task
            return task
        }
    }

    /// How many tasks are still running.
    package var count: Int { running.withLock { $0.tasks.count } }

    /// Cancels every task still running and returns when all have ended.
    package func finish() async {
        let tasks = running.withLock { Array($0.tasks.values) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}
