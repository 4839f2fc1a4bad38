import Glibc
import ScreenMatesWatch
import Synchronization

/// A request to stop a command that runs until told to, made by a stop signal (`StopSignals`) or
/// by code (`request`), that wakes whatever waits for it: a task awaiting `wait()`, a loop that
/// sleeps in `poll` with `descriptor` among what it waits for (`sleep(for:)`). Nothing looks at
/// it on a timer.
///
/// A signal handler may only write to a pipe, so a task waiting for a signal is woken by a thread
/// that sleeps on the pipe for it (started by the first `wait`, joined by `close`); a loop that
/// polls the pipe itself needs none.
public final class StopRequest: Sendable {
    private struct Waiting {
        var next: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Wakes the waiters when a signal writes to the pipe.
        var listener: OwnedThread?
        var closed = false
    }

    private let pipe = WakePipe()
    /// The exit status asked for by code; 0 for none.
    private let requested = Atomic<Int32>(0)
    /// The exit status a signal asked for, if one did (nil when only code makes requests).
    private let signalled: (@Sendable () -> Int32?)?
    private let waiting = Mutex(Waiting())

    /// A request only code makes (`request`).
    public convenience init() {
        self.init(signalled: nil)
    }

    /// A request that `signalled` may also have made, by writing to `signalDescriptor`.
    init(signalled: (@Sendable () -> Int32?)?) {
        self.signalled = signalled
    }

    /// What a signal handler writes to, to wake whatever waits.
    var signalDescriptor: Int32 { pipe.writeFD }

    /// The exit status the stop asks for, once one was requested.
    public var exitStatus: Int32? {
        let status = requested.load(ordering: .acquiring)
        return status != 0 ? status : signalled?()
    }

    /// Asks to stop with `exitStatus` (not 0; the first request's status stays) and wakes
    /// everything that waits. Safe from any thread; not from a signal handler (`StopSignals`).
    public func request(exitStatus: Int32) {
        precondition(exitStatus != 0, "a stop's exit status is not 0")
        _ = requested.compareExchange(expected: 0, desired: exitStatus, ordering: .acquiringAndReleasing)
        pipe.wake()
        wakeWaiters()
    }

    /// Readable from the moment a stop is requested, and from then on: for a loop that sleeps
    /// in `poll`. (Never read from it.)
    public var descriptor: Int32 { pipe.readFD }

    /// Sleeps the calling thread for `duration`, or until a stop is requested; true when one is.
    public func sleep(for duration: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        while exitStatus == nil {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let milliseconds = Int32(min(60_000, (left / .milliseconds(1)).rounded(.up)))
            var descriptors = [pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)]
            // Readable: a stop, or `close`; either way this ends the sleep.
            if poll(&descriptors, 1, milliseconds) > 0 { break }
        }
        return exitStatus != nil
    }

    /// Returns once a stop is requested (at once when one was), or when the calling task is
    /// cancelled, or the request is closed.
    public func wait() async {
        guard exitStatus == nil else { return }
        let id = waiting.withLock { waiting in
            defer { waiting.next += 1 }
            return waiting.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = waiting.withLock { waiting -> Bool in
                    // Looked at under the lock that `request`, the listener and cancellation
                    // take, so no wake-up falls between the look and the wait.
                    if waiting.closed || exitStatus != nil || Task.isCancelled { return true }
                    waiting.waiters[id] = continuation
                    if signalled != nil && waiting.listener == nil {
                        waiting.listener = OwnedThread(name: "stop-signals") { [self] in listen() }
                    }
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            waiting.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Runs `work` until it ends, or a stop is requested: then its task is cancelled (which
    /// wakes it) and what it returns is still awaited.
    public func cancelling<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await work() }
            group.addTask {
                await self.wait()
                return nil
            }
            var result: T?
            while let next = await group.next() {
                // The first to end ends the other: the work when stopped, the wait when done.
                group.cancelAll()
                if let next { result = next }
            }
            return result!
        }
    }

    /// Ends the listener thread (joined before this returns) and wakes any waiter left; a
    /// `wait` after this returns at once.
    public func close() async {
        let listener = waiting.withLock { waiting in
            waiting.closed = true
            return waiting.listener
        }
        pipe.wake()
        wakeWaiters()
        await listener?.join()
    }

    /// The listener: sleeps until the pipe is written to (a signal, a request, or `close`),
    /// then wakes the waiters and ends. The pipe stays readable from then on, so once is all.
    private func listen() {
        var descriptors = [pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)]
        while poll(&descriptors, 1, -1) <= 0 {}
        wakeWaiters()
    }

    private func wakeWaiters() {
        let waiters = waiting.withLock { waiting in
            defer { waiting.waiters = [:] }
            return Array(waiting.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
