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

/// The two runners of `withDeadline` — the work and its deadline on the shared timer — and the
/// one answer they race to give.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var timer: DeadlineTimer.Token?
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
        let timer = DeadlineTimer.shared.schedule(after: limit) { self.finish(.failure(NoAnswer(after: limit))) }
        let finished = state.withLock { state -> Bool in
            state.work = work
            state.timer = timer
            return state.continuation == nil
        }
        if finished {
            work.cancel()
            DeadlineTimer.shared.cancel(timer)
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
        if let timer { DeadlineTimer.shared.cancel(timer) }
        if case .failure = result { work?.cancel() }
        continuation.resume(with: result)
    }
}

/// The tasks `withDeadline` starts — the work of each call — kept until they end: a query given
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

/// One timer for every deadline of the process: a heap of due times and one task that sleeps
/// until the earliest that is still wanted, then gives the answers that are due.
///
/// Why not a `Task.sleep` per call: a member asks every 2 s, and a sleep given up on still
/// holds a timer of the runtime's (on Linux a Dispatch timer source) until its time has come —
/// 5 s later — so a process playing 5,000 members kept some 25,000 of them and paid for each. A
/// deadline given up on here is only forgotten; the heap drops it when it comes to the top, and
/// the sleeping task ends once no deadline is wanted.
final class DeadlineTimer: Sendable {
    /// A scheduled deadline, to cancel it.
    struct Token: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    static let shared = DeadlineTimer()

    private struct Due {
        var at: ContinuousClock.Instant
        var id: UInt64
    }

    private struct State {
        /// A binary min-heap by `at`; it may hold deadlines given up on (not in `actions`).
        var heap: [Due] = []
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var next: UInt64 = 0
        /// The sleeping task's turn, and until when it sleeps (nil: no task runs).
        var turn: UInt64 = 0
        var sleepingUntil: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// Calls `fire` once `limit` has passed, unless cancelled first.
    func schedule(after limit: Duration, _ fire: @escaping @Sendable () -> Void) -> Token {
        let at = ContinuousClock.now + limit
        let (token, startTurn) = state.withLock { state -> (Token, UInt64?) in
            let id = state.next
            state.next += 1
            state.actions[id] = fire
            Self.push(Due(at: at, id: id), into: &state.heap)
            // A task sleeps already, and wakes in time for this one.
            if let until = state.sleepingUntil, until <= at { return (Token(id: id), nil) }
            state.turn += 1
            state.sleepingUntil = at
            return (Token(id: id), state.turn)
        }
        if let startTurn { Task { await self.run(turn: startTurn) } }
        return token
    }

    /// Forgets a deadline; its `fire` is not called (unless it has been already).
    func cancel(_ token: Token) {
        state.withLock { state in
            _ = state.actions.removeValue(forKey: token.id)
            if state.actions.isEmpty { state.heap.removeAll(keepingCapacity: true) }
        }
    }

    /// Gives the answers that are due, then sleeps until the next wanted deadline; ends when a
    /// newer turn has started (an earlier deadline came) or no deadline is wanted.
    private func run(turn: UInt64) async {
        while true {
            let (due, until) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
                guard state.turn == turn else { return ([], nil) }
                var due: [@Sendable () -> Void] = []
                let now = ContinuousClock.now
                while let top = state.heap.first, top.at <= now || state.actions[top.id] == nil {
                    Self.popTop(of: &state.heap)
                    if let fire = state.actions.removeValue(forKey: top.id) { due.append(fire) }
                }
                state.sleepingUntil = state.heap.first?.at
                return (due, state.sleepingUntil)
            }
            for fire in due { fire() }
            guard let until else { return }
            try? await Task.sleep(until: until, clock: .continuous)
        }
    }

    private static func push(_ due: Due, into heap: inout [Due]) {
        heap.append(due)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].at < heap[parent].at else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func popTop(of heap: inout [Due]) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].at < heap[smallest].at { smallest = left }
            if right < heap.count && heap[right].at < heap[smallest].at { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
