import Foundation
import Glibc
import ScreenMatesGroupStore
import Synchronization

/// Turns writes to the shared group-store file into the `changes(code:)` signal, without busy
/// polling: a background thread sleeps in `poll` on an inotify watch of the file's directory.
///
/// A notice arrives when a writer appends to the write-ahead log, which can be a moment before
/// its commit is visible to readers. So after a notice the group's change mark is read at once
/// and again after 20, 100, 400 and 1000 ms, and the stream yields only when the mark has really
/// changed. A slow safety poll of the mark (every 3 s; every second where inotify is not to be
/// had) catches anything the notices miss. Idle, the thread wakes only for that poll.
final class GroupChangeWatch: Sendable {
    private let inotify: Int32
    /// A pipe whose write end `stop` writes to, waking the thread (read end first).
    private let wakeup: (read: Int32, write: Int32)
    private let names: Set<String>
    private let readMark: @Sendable () -> Int64?
    private let continuation: AsyncStream<Void>.Continuation
    private let safety: Duration
    private let stopped = Atomic<Bool>(false)

    /// When the mark is read again after a change notice. The last file write of a commit (the
    /// log's frames) comes before the commit shows, by the time the log takes to reach the disk;
    /// a commit slower than a second is still caught by the safety poll.
    static let recheckDelays: [Duration] = [
        .zero, .milliseconds(20), .milliseconds(100), .milliseconds(400), .milliseconds(1000),
    ]
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
        names = [base, base + "-wal", base + "-journal"]
        var fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)
        if fd >= 0 && inotify_add_watch(fd, directory.isEmpty ? "." : directory, mask) < 0 {
            close(fd)
            fd = -1
        }
        inotify = fd
        safety = safetyInterval ?? (fd >= 0 ? Self.safetyInterval : Self.safetyIntervalWithoutNotices)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        }
        wakeup = (ends[0], ends[1])
        self.readMark = readMark
        self.continuation = continuation
    }

    deinit {
        if inotify >= 0 { close(inotify) }
        if wakeup.read >= 0 { close(wakeup.read) }
        if wakeup.write >= 0 { close(wakeup.write) }
    }

    /// Starts the watching thread. Its first reading of the mark yields (the consumer's first
    /// look), then only a different mark does.
    func start() {
        Thread.detachNewThread { [self] in run() }
    }

    /// Ends the thread (which lets go of the watch) and the stream.
    func stop() {
        stopped.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        if wakeup.write >= 0 { _ = write(wakeup.write, &byte, 1) }
    }

    private func run() {
        let clock = ContinuousClock()
        var last: Int64?
        var rechecks: [ContinuousClock.Instant] = [clock.now]
        var nextSafetyCheck = clock.now + safety
        while !stopped.load(ordering: .acquiring) {
            let due = min(rechecks.min() ?? nextSafetyCheck, nextSafetyCheck)
            if waitForNotice(until: due, clock: clock) {
                let now = clock.now
                rechecks = Self.recheckDelays.map { now + $0 }
            }
            guard !stopped.load(ordering: .acquiring) else { break }
            let now = clock.now
            guard rechecks.contains(where: { $0 <= now }) || now >= nextSafetyCheck else { continue }
            rechecks.removeAll { $0 <= now }
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
        var descriptors = [pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0)]
        if inotify >= 0 { descriptors.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard ready > 0, descriptors.count == 2, descriptors[1].revents != 0 else { return false }
        return drainNotices()
    }

    /// Reads the pending notices; true if one concerns the store's files (or some were lost).
    private func drainNotices() -> Bool {
        var relevant = false
        let size = 4096
        let header = MemoryLayout<inotify_event>.size
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, size)
            if count <= 0 { break }
            var offset = 0
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                if event.len > 0 {
                    let name = String(cString: (buffer + offset + header).assumingMemoryBound(to: CChar.self))
                    if names.contains(name) { relevant = true }
                }
                offset += header + Int(event.len)
            }
        }
        return relevant
    }
}
