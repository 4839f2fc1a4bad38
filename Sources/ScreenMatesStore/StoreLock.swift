import Glibc

/// Who else has the store open, via `flock` on `local.sqlite.lock`.
///
/// Every process holds a shared lock for as long as it has the store open. Opening first asks
/// for the exclusive lock without waiting: getting it means no other process has the database
/// open, so it is safe to create it, to look for damage left by a crash, and to recover. Then
/// the lock is turned into a shared one. A process that cannot get it waits for a shared lock,
/// which only waits while another process is in that first, exclusive step.
final class StoreLock: Sendable {
    private let descriptor: Int32
    /// True when this process had the store to itself when it opened it.
    let wasAlone: Bool

    private init(descriptor: Int32, wasAlone: Bool) {
        self.descriptor = descriptor
        self.wasAlone = wasAlone
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }  // Closing releases the lock.
    }

    /// Takes the lock for the store at `path`. A directory where the lock file cannot be
    /// created (read-only) gives a lock that promises nothing: the store is then treated as
    /// shared, and no repair or creation is attempted.
    static func acquire(forStoreAt path: String) throws(StoreError) -> StoreLock {
        let lockPath = path + ".lock"
        var fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM) {
            fd = open(lockPath, O_RDONLY | O_CLOEXEC)
            if fd < 0 { return StoreLock(descriptor: -1, wasAlone: false) }
        }
        guard fd >= 0 else {
            throw .cannotOpen(path: lockPath, detail: String(cString: strerror(errno)))
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return StoreLock(descriptor: fd, wasAlone: true) }
        while flock(fd, LOCK_SH) != 0 {
            guard errno == EINTR else {
                let detail = String(cString: strerror(errno))
                close(fd)
                throw .cannotOpen(path: lockPath, detail: detail)
            }
        }
        return StoreLock(descriptor: fd, wasAlone: false)
    }

    /// Lets other processes open the store too (exclusive → shared).
    func share() {
        guard descriptor >= 0 else { return }
        while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
    }
}
