import Foundation
import Glibc
import ScreenMatesGroupStore
import ScreenMatesWatch
import Synchronization

/// Turns writes to the shared group-store file into the `changes(code:)` signal, without busy
/// polling: a background thread sleeps in `poll` on the file's notices (`FileNotices`).
///
/// After a notice the group's change mark is read on `RecheckSchedule.afterNotice` (a commit shows a
/// moment after its log is written), and the stream yields only when the mark has really
/// changed. A slow safety poll of the mark (every 3 s; every second where inotify is not to be
/// had) catches anything the notices miss. Idle, the thread wakes only for that poll.
///
/// The thread is owned: `stop` wakes it through its pipe and it ends at once, and the store
/// that made the watch joins it (`SQLiteGroupStore.close`).
final class GroupChangeWatch: Sendable {
    private let notices: FileNotices?
    /// Wakes the thread for `stop`.
    private let wakeup = WakePipe()
    private let readMark: @Sendable () -> Int64?
    private let continuation: AsyncStream<Void>.Continuation
    private let safety: Duration
    private let stopped = Atomic<Bool>(false)
    private let thread = Mutex<OwnedThread?>(nil)

    /// How often the mark is read with no notice at all.
    static let safetyInterval: Duration = .seconds(3)
    static let safetyIntervalWithoutNotices: Duration = .seconds(1)

    /// Watches the SQLite file at `path` (and its write-ahead log). `readMark` reads the
    /// group's change mark, `nil` when it cannot be read right now. `safetyInterval` replaces
    /// the safety poll's interval (tests set it beyond their length, so only notices count).
    init(
        path: String, readMark: @escaping @Sendable () -> Int64?, continuation: AsyncStream<Void>.Continuation,
        safetyInterval: Duration? = nil
    ) {
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        let names: Set<String> = [base, base + "-wal", base + "-journal"]
        notices = FileNotices(directory: directory, wanted: { names.contains($0) })
        safety = safetyInterval ?? (notices != nil ? Self.safetyInterval : Self.safetyIntervalWithoutNotices)
        self.readMark = readMark
        self.continuation = continuation
    }

    /// Starts the watching thread. Its first reading of the mark yields (the consumer's first
    /// look), then only a different mark does.
    func start() {
        thread.withLock { $0 = OwnedThread(name: "group-changes") { [self] in run() } }
    }

    /// Ends the thread (which lets go of the watch) and the stream: wakes it, without waiting.
    func stop() {
        stopped.store(true, ordering: .releasing)
        wakeup.wake()
    }

    /// Whether the thread has ended (it needs joining still).
    var hasEnded: Bool { thread.withLock { $0?.hasEnded ?? false } }

    /// The thread's id, while it runs (for tests that look for it in `/proc/self/task`).
    var threadID: Int32 { thread.withLock { $0?.threadID ?? 0 } }

    /// Waits until the thread has ended and is gone; `stop` first, or it waits for the stream
    /// to end some other way.
    func join() async {
        await thread.withLock { $0 }?.join()
    }

    /// `join` for a thread that has ended already (`hasEnded`), which takes no time.
    func joinEnded() {
        thread.withLock { $0 }?.joinBlocking()
    }

    private func run() {
        let clock = ContinuousClock()
        var last: Int64?
        var rechecks = RecheckSchedule()
        rechecks.noticed(at: clock.now)
        var nextSafetyCheck = clock.now + safety
        while !stopped.load(ordering: .acquiring) {
            let due = min(rechecks.next ?? nextSafetyCheck, nextSafetyCheck)
            if waitForNotice(until: due, clock: clock) { rechecks.noticed(at: clock.now) }
            guard !stopped.load(ordering: .acquiring) else { break }
            let now = clock.now
            guard rechecks.take(at: now) || now >= nextSafetyCheck else { continue }
            nextSafetyCheck = now + safety
            guard let mark = readMark(), mark != last else { continue }
            last = mark
            if case .terminated = continuation.yield() { break }
        }
        continuation.finish()
    }

    /// Sleeps until a notice about the store's files, a stop, or `deadline`. True on a notice.
    private func waitForNotice(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Bool {
        let remaining = clock.now.duration(to: deadline)
        let milliseconds = remaining <= .zero ? 0 : Int32(min(60_000, (remaining / .milliseconds(1)).rounded(.up)))
        var descriptors = [pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0)]
        if let notices { descriptors.append(pollfd(fd: notices.descriptor, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard ready > 0, let notices, descriptors[1].revents != 0 else { return false }
        return notices.drain()
    }
}
