import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why the database cannot take writes right now, found by looking instead of writing: a
/// read-only file system, a file this user may not write, a full disk.
///
/// A process that only reads (the dashboard) uses it to say what is wrong while another one (a
/// monitor) is held up; a failed write uses it to name the cause instead of SQLite's
/// "attempt to write a readonly database".
public enum WriteProblem: Hashable, Sendable {
    /// The file system holding the database is mounted read-only.
    case readOnlyFileSystem
    /// The database file may not be written by this user.
    case fileNotWritable
    /// The directory may not be written by this user (new files, such as a missing write-ahead
    /// log, cannot be created).
    case directoryNotWritable
    /// The file system has less room than a few commits need.
    case diskFull

    /// Below this many free bytes a disk counts as full: a commit of a few events appends a
    /// handful of 4 KiB pages to the write-ahead log.
    public static let minimumFreeBytes: UInt64 = 64 * 1024

    /// What stops writes to the database at `path` now, if anything. Looks at the file system
    /// (read-only, free space) and, unless `permissions` is false, at the file's and the
    /// directory's permissions for this user.
    public static func find(forDatabaseAt path: String, permissions: Bool = true) -> WriteProblem? {
        let directory = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        if statvfs(directory.isEmpty ? "." : directory, &info) == 0 {
            if info.f_flag & UInt(ST_RDONLY) != 0 { return .readOnlyFileSystem }
            // Root may use the blocks kept back for it; anyone else only the available ones.
            let blocks = geteuid() == 0 ? UInt64(info.f_bfree) : UInt64(info.f_bavail)
            if blocks * UInt64(info.f_frsize) < minimumFreeBytes { return .diskFull }
        }
        guard permissions else { return nil }
        if access(path, F_OK) == 0 && access(path, W_OK) != 0 { return .fileNotWritable }
        if access(directory.isEmpty ? "." : directory, W_OK) != 0 { return .directoryNotWritable }
        return nil
    }

    /// The cause in a few words, for a message that names the file.
    public var detail: String {
        switch self {
        case .readOnlyFileSystem: "its file system is mounted read-only"
        case .fileNotWritable: "the file may not be written by this user"
        case .directoryNotWritable: "its directory may not be written by this user"
        case .diskFull: "the disk is full"
        }
    }
}
