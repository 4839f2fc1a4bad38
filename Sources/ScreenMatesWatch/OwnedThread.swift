import Glibc
import Synchronization

/// A thread with an owner that waits for it: made with the work it runs, ended by that work
/// returning, and joined by its owner (`join`), after which the thread is gone — its stack
/// freed and its entry in `/proc/self/task` removed. Whatever sleeps on it must be woken by its
/// owner to end (a `WakePipe` in its `poll`), never found later by a timer.
///
/// A thread left unjoined when its `OwnedThread` goes away is detached so that it does not
/// linger as a zombie; that is a fallback for an owner that failed, not a way to run one.
public final class OwnedThread: Sendable {
    private enum End: Sendable {
        case running
        case awaited(CheckedContinuation<Void, Never>)
        case ended
    }

    /// The work, handed to the new thread. The body is let go of once it has run, with all it
    /// holds (which may hold the `OwnedThread`).
    private final class Work: Sendable {
        let name: String
        let body: Mutex<(@Sendable () -> Void)?>
        let end = Mutex(End.running)
        let threadID = Atomic<Int32>(0)

        init(name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = Mutex(body)
        }

        func run() {
            // Glibc's module shows neither gettid nor pthread_setname_np; /proc does both.
            threadID.store(Self.currentThreadID(), ordering: .releasing)
            Self.nameCurrentThread(name)
            let body = self.body.withLock { body in
                defer { body = nil }
                return body
            }
            body?()
            let waiting = end.withLock { end -> CheckedContinuation<Void, Never>? in
                defer { end = .ended }
                if case .awaited(let continuation) = end { return continuation }
                return nil
            }
            waiting?.resume()
        }

        /// The calling thread's id, from `/proc/thread-self` (a link to `PID/task/TID`).
        private static func currentThreadID() -> Int32 {
            var buffer = [CChar](repeating: 0, count: 64)
            let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
            guard count > 0 else { return 0 }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return target.split(separator: "/").last.flatMap { Int32($0) } ?? 0
        }

        /// Names the calling thread (the kernel keeps 15 bytes).
        private static func nameCurrentThread(_ name: String) {
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            var bytes = Array(name.utf8.prefix(15))
            _ = write(fd, &bytes, bytes.count)
            close(fd)
        }
    }

    private let thread: pthread_t
    private let work: Work
    private let joined = Mutex(false)

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept: what `top -H` and
    /// `/proc/self/task/*/comm` show).
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Work(name: name, body)
        self.work = work
        var thread = pthread_t()
        let context = Unmanaged.passRetained(work).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { context in
                let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                work.run()
                return nil
            }, context)
        precondition(created == 0, "cannot start a thread (error \(created))")
        self.thread = thread
    }

    deinit {
        if !joined.withLock({ $0 }) { pthread_detach(thread) }
    }

    /// The thread's id (`gettid`), once it has started; 0 before.
    public var threadID: Int32 { work.threadID.load(ordering: .acquiring) }

    /// Whether the work has returned (the thread may take a moment more to be gone: `join`).
    public var hasEnded: Bool {
        work.end.withLock { end in
            if case .ended = end { return true }
            return false
        }
    }

    /// Returns once the work has returned and the thread is gone. The wait for the work is a
    /// suspension; only the thread's last instants, after its work returned, are waited for
    /// with `pthread_join`. Joining again returns at once.
    public func join() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = work.end.withLock { end -> Bool in
                switch end {
                case .running:
                    end = .awaited(continuation)
                    return false
                case .awaited:
                    preconditionFailure("a thread is joined by its one owner")
                case .ended:
                    return true
                }
            }
            if ended { continuation.resume() }
        }
        joinEnded()
    }

    /// Joins the thread, blocking the caller until its work has returned: for an owner that
    /// cannot await (a `deinit`), and only for work already told to end.
    public func joinBlocking() {
        joinEnded()
    }

    private func joinEnded() {
        joined.withLock { joined in
            guard !joined else { return }
            joined = true
            pthread_join(thread, nil)
        }
    }
}
