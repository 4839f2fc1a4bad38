import Foundation
import Glibc
import ScreenMatesGroupStore

/// The exclusive `flock` on `<store>.lock` under which a process creates, checks and migrates
/// the shared group-store file.
///
/// SQLite's own locking cannot cover the first moments of a database: two processes that
/// create the same new file at once can both try to turn WAL on and one fails. Holding this
/// lock only while opening makes creation and migration one-at-a-time; once open, processes
/// rely on SQLite's locks alone. The lock file, like the store, is meant to be shared by the
/// members' accounts (mode 0660); one that is a symbolic link is not followed (`O_NOFOLLOW`).
final class GroupStoreFileLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock for the store at `path`, waiting up to `timeout` seconds for another
    /// process that is opening it. A directory where the lock file can be neither created nor
    /// opened (read-only) gives a lock that holds nothing: nothing can be created there anyway.
    static func exclusive(forStoreAt path: String, timeout: TimeInterval) throws(GroupStoreError) -> GroupStoreFileLock
    {
        let lockPath = path + ".lock"
        var fd = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o660)
        if fd >= 0 {
            fchmod(fd, 0o660)  // The umask may have taken the group's bits.
        } else if errno == EEXIST {
            fd = open(lockPath, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        }
        if fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM) {
            fd = open(lockPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)  // flock works on a descriptor opened for reading.
            if fd < 0 { return GroupStoreFileLock(descriptor: -1) }
        }
        guard fd >= 0 else {
            throw .unavailable(location: path, detail: "cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(max(0, timeout) * 1000))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw .unavailable(
                    location: path, detail: "cannot lock \(lockPath): \(String(cString: strerror(code)))")
            }
            // Held only while another process opens the store: a few milliseconds.
            guard ContinuousClock.now < deadline else {
                close(fd)
                throw .unavailable(
                    location: path, detail: "another process kept it locked for more than \(Self.seconds(timeout))")
            }
            usleep(5000)
        }
        return GroupStoreFileLock(descriptor: fd)
    }

    /// Lets other processes open the store (closing the descriptor releases the lock).
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
    }
}
