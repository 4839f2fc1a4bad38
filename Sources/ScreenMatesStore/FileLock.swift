#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive advisory lock on a file (`flock`), held while a database is created and
/// migrated so that processes starting at the same moment never race on the schema.
enum FileLock {
    static func withLock<T>(path: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            let detail = String(cString: strerror(code))
            throw code == EACCES || code == EROFS
                ? .notWritable(path: path, detail: detail) : .cannotOpen(path: path, detail: detail)
        }
        defer { close(fd) }  // Closing releases the lock.
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw .cannotOpen(path: path, detail: String(cString: strerror(errno)))
        }
        return try body()
    }
}
