import Synchronization

/// Runs `body` and gives up waiting for it after `limit`, throwing `NoAnswer`.
///
/// A query on a connection whose server has gone silent (a network cut, a machine asleep) may
/// not end until TCP gives up, minutes later, and postgres-nio does not interrupt a running query
/// on cancellation. So `body` runs in a task of its own, which is cancelled and left to finish on
/// its own when the time is up; the caller gets its answer at once. Cancelling the caller
/// cancels `body` too.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
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
        let work = Task {
            do {
                self.finish(.success(try await body()))
            } catch {
                self.finish(.failure(error))
            }
        }
        let timer = Task {
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
