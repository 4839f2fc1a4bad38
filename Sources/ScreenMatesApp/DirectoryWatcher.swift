import Glibc

/// Wakes the dashboard when another process writes the local database: an inotify watch on
/// the home directory, whose descriptor the main loop waits on beside the keyboard. Idle costs
/// nothing; a commit by a monitor process is noticed at once.
public final class DirectoryWatcher {
    public let descriptor: Int32
    private let prefix: String

    /// Watches `directory` for changes to files whose names start with `prefix`.
    public init?(directory: String, prefix: String) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        self.prefix = prefix
    }

    deinit { close(descriptor) }

    /// Reads the pending notifications; true if one concerns the watched files.
    public func drain() -> Bool {
        var relevant = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let name = String(cString: nameStart.assumingMemoryBound(to: CChar.self))
                    if name.hasPrefix(prefix) { relevant = true }
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
        return relevant
    }
}
