import Synchronization

/// Runs `body` and gives up waiting for it after `limit`, throwing `NoAnswer`.
///
/// A query on a connection whose server has gone silent (a network cut, a machine asleep) may
/// not end until TCP gives up, minutes later, and postgres-nio does not interrupt a running query
/// on cancellation. So `body` runs in a task of its own, which is cancelled and left to finish
/// when the time is up — `overdue` keeps it, and its owner waits for it once the connection is
/// closed — and the caller gets its answer at once. Cancelling the caller cancels `body` too.
func withDeadline<T: Sendable>(
    _ limit: Duration, overdue: OverdueQueries, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>(owner: overdue)
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.start(continuation: continuation, limit: limit, body: body)
        }
    } onCancel: {
        race.cancel()
    }
}

/// The two runners of `withDeadline` — the work and the timer — and the one answer they race
/// to give.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let owner: OverdueQueries

    init(owner: OverdueQueries) { self.owner = owner }

    func start(
        continuation: CheckedContinuation<T, any Error>, limit: Duration,
        body: @escaping @Sendable () async throws -> T
    ) {
        let cancelledAlready = state.withLock { state -> Bool in
            state.continuation = continuation
            return state.cancelled
        }
        if cancelledAlready {
            finish(.failure(CancellationError()))
            return
        }
        let work = owner.start {
            do {
                self.finish(.success(try await body()))
            } catch {
                self.finish(.failure(error))
            }
        }
        let timer = owner.start {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self.finish(.failure(NoAnswer(after: limit)))
        }
        let finished = state.withLock { state -> Bool in
            state.work = work
            state.timer = timer
            return state.continuation == nil
        }
        if finished {
            work.cancel()
            timer.cancel()
        }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
        finish(.failure(CancellationError()))
    }

    /// Gives the first answer; later ones are dropped. Whatever still runs is cancelled.
    private func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = state.withLock { state in
            defer {
                state.continuation = nil
                state.work = nil
                state.timer = nil
            }
            return (state.continuation, state.work, state.timer)
        }
        guard let continuation else { return }
        timer?.cancel()
        if case .failure = result { work?.cancel() }
        continuation.resume(with: result)
    }
}

/// The tasks `withDeadline` starts — the work and its timer — kept until they end: a query given
/// up on still runs until its connection is closed, so whoever closes the connections (the
/// store's `close`) waits for them afterwards, and nothing is left running unowned.
final class OverdueQueries: Sendable {
    private struct Running {
        var next: UInt64 = 0
        var tasks: [UInt64: Task<Void, Never>] = [:]
    }

    private let running = Mutex(Running())

    /// Starts `operation`, kept until it ends.
    func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        running.withLock { running in
            let id = running.next
            running.next += 1
            // The task takes the lock to leave the list only once it is in it.
            let task = Task { [self] in
                await operation()
                _ = self.running.withLock { $0.tasks.removeValue(forKey: id) }
            }
            running.tasks[id] = task
            return task
        }
    }

    /// Returns once every task started so far has ended (it cancels none).
    func waitForAll() async {
        let tasks = running.withLock { Array($0.tasks.values) }
        for task in tasks { await task.value }
    }
}

/// Runs `body` and waits for it at most `limit` (`withDeadline`, its tasks kept by no one):
/// whether it ended. A body still running then is cancelled and left to end by itself.
func endsWithin(_ limit: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    do {
        try await withDeadline(limit, overdue: OverdueQueries()) { await body() }
        return true
    } catch {
        return false
    }
}
