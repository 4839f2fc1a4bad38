import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// Why the local store could not do what was asked, with the file involved and what to do.
public enum StoreError: ExplainedError, Hashable, Sendable {
    /// The file is not a database, or its pages are damaged.
    case damaged(path: String, detail: String)
    /// The file or its directory cannot be written (permissions, read-only file system).
    case notWritable(path: String, detail: String)
    /// The disk (or the file-size limit) is full.
    case diskFull(path: String)
    /// Another process held the database locked for longer than the busy timeout.
    case busy(path: String)
    /// The database was written by a newer version of ScreenMates.
    case newerSchema(path: String)
    /// The file or directory cannot be opened at all.
    case cannotOpen(path: String, detail: String)
    /// Another process has the store open (recovery needs it to itself).
    case inUse(path: String)
    /// A value is out of the range the store accepts.
    case invalidValue(String)
    /// Any other input/output or SQLite failure.
    case failure(path: String, detail: String)

    public var message: String {
        switch self {
        case .damaged(let path, let detail):
            return "The local database \(path) is damaged (\(detail)). "
                + "Run `screenmates recover` to save what can be read into a new database; "
                + "the damaged file is kept aside, never deleted."
        case .notWritable(let path, let detail):
            return "Cannot write to \(path) (\(detail)). Make it writable again (check the permissions of the file "
                + "and its directory; remount a read-only file system read-write), or choose another home with --home."
        case .diskFull(let path):
            return "The disk holding \(path) is full (or a file-size limit was reached). "
                + "Free some space; nothing already saved is lost, and pending events will be written once there is room."
        case .busy(let path):
            return "The local database \(path) is locked by another process for too long. "
                + "It will be retried; if it persists, look for a stuck screenmates process."
        case .newerSchema(let path):
            return "The local database \(path) was written by a newer version of ScreenMates. "
                + "Update ScreenMates, or point --home at another directory."
        case .cannotOpen(let path, let detail):
            return "Cannot open \(path) (\(detail)). Check that the directory exists and is yours, or use --home."
        case .inUse(let path):
            return "\(path) is in use by another ScreenMates process (a dashboard or a monitor). "
                + "Stop them first, then try again."
        case .invalidValue(let detail):
            return detail
        case .failure(let path, let detail):
            return "The local database \(path) failed: \(detail)."
        }
    }

    /// Maps an SQLite or system error met while using the file at `path`.
    static func from(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? UnreadableValue {
            return .damaged(path: path, detail: "\(error.table).\(error.column) holds a value that cannot be right")
        }
        guard let error = error as? DatabaseError else {
            return .failure(path: path, detail: String(describing: error))
        }
        let detail = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT:
            return .damaged(path: path, detail: detail)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            // SQLite says "attempt to write a readonly database" whatever the reason: name it.
            let cause = WriteProblem.find(forDatabaseAt: path).flatMap { $0 == .diskFull ? nil : $0.detail }
            return .notWritable(path: path, detail: cause ?? detail)
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .busy(path: path)
        case .SQLITE_CANTOPEN:
            return .cannotOpen(path: path, detail: detail)
        case .SQLITE_IOERR:
            // A write that hit a file-size limit surfaces as an I/O error on some systems.
            if error.extendedResultCode == .SQLITE_IOERR_WRITE { return .diskFull(path: path) }
            return .failure(path: path, detail: detail)
        default:
            return .failure(path: path, detail: detail)
        }
    }
}
