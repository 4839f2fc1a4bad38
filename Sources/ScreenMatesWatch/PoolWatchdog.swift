import Glibc
import Synchronization

/// Notices when Swift's cooperative pool stops running tasks, and says so.
///
/// The pool has one thread a core (two on a two-core machine). A thread that blocks on it — a
/// `usleep`, a lock wait, a semaphore — takes a share of the whole program's concurrency with
/// it; two of them and no task runs at all, not even the one that would let them go. The product
/// keeps such waits off the pool (`ThreadExecutor`, `.ci/check-blocking`), and this is the
/// defence for what that misses, in the product or the toolchain: from a thread of its own
/// (`OwnedThread`, outside the pool) it hands the pool a heartbeat task every `interval` (5 s:
/// an idle program wakes for it a dozen times a minute), and when one has waited `limit`
/// without running it reports the pool stalled (`onChange`), then again when the heartbeat runs,
/// with how long the stall lasted. The dashboard logs it and
/// shows it in the debug panel; the monitors and `sync --watch` log it.
///
/// The clocks are monotonic: moving the wall clock (libfaketime, a time zone change) is no stall.
public final class PoolWatchdog: Sendable {
    /// How the pool has been running.
    public struct Health: Sendable, Equatable {
        /// A heartbeat has waited `limit` or more without running, and still waits.
        public var stalled = false
        /// How long the heartbeat waiting now has waited (zero when none waits).
        public var waiting: Duration = .zero
        /// The stalls noticed since the start.
        public var stalls = 0
        /// The longest a heartbeat waited before it ran, since the start.
        public var longestWait: Duration = .zero
        /// Heartbeats that ran.
        public var beats = 0

        public init() {}
    }

    /// Hands `body` to the pool; a test hands in a pool that holds its tasks.
    public typealias Schedule = @Sendable (_ body: @escaping @Sendable () -> Void) -> Void

    private struct State: Sendable {
        var health = Health()
        /// When the heartbeat that has not run yet was handed to the pool.
        var pendingSince: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let wake = WakePipe()
    private let stopping = Atomic<Bool>(false)
    private let thread: Mutex<OwnedThread?> = Mutex(nil)
    private let interval: Duration
    private let limit: Duration
    private let schedule: Schedule
    private let onChange: @Sendable (Health) -> Void

    /// Starts watching at once. `onChange` is told each stall and each recovery (from the
    /// watchdog's thread, or from the heartbeat that ended the stall).
    public init(
        interval: Duration = .seconds(5), limit: Duration = .seconds(10),
        schedule: @escaping Schedule = { body in Task.detached { body() } },
        onChange: @escaping @Sendable (Health) -> Void
    ) {
        self.interval = interval
        self.limit = limit
        self.schedule = schedule
        self.onChange = onChange
        let started = OwnedThread(name: "pool watchdog") { [self] in watch() }
        thread.withLock { $0 = started }
    }

    /// The pool's health now.
    public var health: Health { state.withLock { $0.health } }

    /// Stops watching; returns once the watchdog's thread is gone.
    public func stop() async {
        stopping.store(true, ordering: .releasing)
        wake.wake()
        await thread.withLock { $0 }?.join()
    }

    /// Runs `body` while a watchdog watches the pool, telling `onChange` of stalls.
    public static func watching<T>(
        onChange: @escaping @Sendable (Health) -> Void, _ body: () async -> T
    ) async -> T {
        let watchdog = PoolWatchdog(onChange: onChange)
        let result = await body()
        await watchdog.stop()
        return result
    }

    /// The watchdog's loop, on its own thread: a heartbeat handed to the pool whenever none
    /// waits, and a look at how long the one waiting has waited, every `interval`.
    private func watch() {
        var descriptor = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(1, min(interval / .milliseconds(1), 60_000)))
        while !stopping.load(ordering: .acquiring) {
            look(now: .now)
            _ = poll(&descriptor, 1, milliseconds)
            wake.drain()
        }
    }

    /// One look: hand the pool a heartbeat if none waits; else say a stall once it waited `limit`.
    func look(now: ContinuousClock.Instant) {
        let (beat, stalled) = state.withLock { state -> (Bool, Health?) in
            guard let since = state.pendingSince else {
                state.pendingSince = now
                return (true, nil)
            }
            state.health.waiting = now - since
            guard !state.health.stalled, now - since >= limit else { return (false, nil) }
            state.health.stalled = true
            state.health.stalls += 1
            return (false, state.health)
        }
        if let stalled { onChange(stalled) }
        guard beat else { return }
        schedule { [self] in beaten(at: .now) }
    }

    /// The heartbeat ran: the pool runs tasks; a stall, if one was said, is over.
    private func beaten(at now: ContinuousClock.Instant) {
        let recovered = state.withLock { state -> Health? in
            let waited = state.pendingSince.map { now - $0 } ?? .zero
            state.pendingSince = nil
            state.health.beats += 1
            state.health.waiting = .zero
            state.health.longestWait = max(state.health.longestWait, waited)
            guard state.health.stalled else { return nil }
            state.health.stalled = false
            return state.health
        }
        if let recovered { onChange(recovered) }
    }
}
