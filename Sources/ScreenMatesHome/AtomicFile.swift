import Foundation
import Glibc

/// Writes a file whole or not at all: into a temporary file beside it (owner-only), flushed to
/// disk, then renamed over the target. A reader sees the old file or the new one, never half of
/// one, and a failure leaves the old file (or none) and no temporary file behind.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws(AppError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary =
            (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure(path, errno) }
        var ok = true
        var code: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    ok = false
                    code = errno
                    return
                }
                offset += written
            }
        }
        if ok && fsync(fd) != 0 {
            ok = false
            code = errno
        }
        if close(fd) != 0 && ok {
            ok = false
            code = errno
        }
        if ok && rename(temporary, path) != 0 {
            ok = false
            code = errno
        }
        guard ok else {
            unlink(temporary)
            throw failure(path, code)
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> AppError {
        AppError("Cannot write \(path): \(String(cString: strerror(code))). Nothing was written; choose another place.")
    }
}
