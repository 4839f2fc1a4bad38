import Glibc

/// A self-pipe that wakes a loop's wait (in `poll`) from any thread or signal handler: the monitor
/// writes when it stored an event, a handler when a signal arrived. Both ends are
/// non-blocking, so a wake-up never blocks the writer and many wake-ups collapse into one.
public final class WakePipe: Sendable {
    public let readFD: Int32
    public let writeFD: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "cannot create the wake-up pipe")
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the loop; safe from any thread.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }
}
