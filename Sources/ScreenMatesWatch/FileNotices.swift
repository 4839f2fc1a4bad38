import Glibc

/// Notices that files in a directory were written: an inotify watch whose descriptor a loop
/// waits on (`poll`) beside whatever else it waits for. Idle, it costs nothing; a commit by
/// another process is noticed at once.
///
/// A notice is a hint, not a commit: SQLite writes its write-ahead log a moment before the
/// commit is visible, so whoever is noticed looks again on `RecheckSchedule.afterNotice`. When the
/// kernel's queue overflowed, notices were lost, and that counts as a notice too.
public final class FileNotices: Sendable {
    public let descriptor: Int32
    private let wanted: @Sendable (String) -> Bool

    /// Watches `directory` for files whose names `wanted` accepts; nil where inotify is not to
    /// be had (the caller falls back to looking on a timer).
    public init?(directory: String, wanted: @escaping @Sendable (String) -> Bool) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(fd, directory.isEmpty ? "." : directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        self.wanted = wanted
    }

    /// Watches `directory` for files whose names start with `prefix` (a database and its
    /// `-wal`, `-shm` and `-journal` files).
    public convenience init?(directory: String, prefix: String) {
        self.init(directory: directory, wanted: { $0.hasPrefix(prefix) })
    }

    deinit { close(descriptor) }

    /// Reads the pending notices; true if one concerns a watched file (or some were lost).
    public func drain() -> Bool {
        var relevant = false
        let size = 4096
        let header = MemoryLayout<inotify_event>.size
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            if count <= 0 { break }
            var offset = 0
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                if event.len > 0 {
                    let name = String(cString: (buffer + offset + header).assumingMemoryBound(to: CChar.self))
                    if wanted(name) { relevant = true }
                }
                offset += header + Int(event.len)
            }
        }
        return relevant
    }
}
