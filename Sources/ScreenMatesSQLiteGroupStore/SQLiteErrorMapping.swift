import Foundation
import GRDB
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

extension GroupStoreError {
    /// Maps an error met while using the SQLite file at `location` to what the caller can act
    /// on: damage or a schema that is not ours (`.unusable`, retrying will not help), a lock
    /// another program held beyond the busy timeout (`.busy`: as a PostgreSQL group held by
    /// someone's open transaction), or anything else (`.unavailable`: permissions, a full disk, a
    /// missing directory… — keep the updates and retry).
    static func sqlite(_ error: any Error, location: String) -> GroupStoreError {
        if let error = error as? GroupStoreError { return error }
        if let row = error as? LeftOutRow {
            // A row that cannot be left out (the group's own): the group cannot be shown.
            return .unusable(location: location, detail: row.description)
        }
        if let error = error as? UnreadableValue {
            return .unusable(
                location: location, detail: "\(error.table).\(error.column) holds a value that cannot be right")
        }
        if let error = error as? RowDecodingError {
            return .unusable(location: location, detail: "a stored value cannot be read: \(error)")
        }
        if error is DecodingError {
            return .unusable(location: location, detail: "a stored value cannot be read: \(error)")
        }
        if error is CancellationError {
            return .unavailable(location: location, detail: "the operation was cancelled")
        }
        guard let error = error as? DatabaseError else {
            return .unavailable(location: location, detail: String(describing: error))
        }
        let detail = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT:
            return .unusable(location: location, detail: detail)
        case .SQLITE_ERROR, .SQLITE_CONSTRAINT, .SQLITE_MISMATCH:
            // A schema that is not ours (a table or column missing, rules that refuse our
            // rows): retrying cannot help.
            return .unusable(location: location, detail: detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .busy(location: location, detail: "another program holds its lock (\(detail))")
        default:
            // CANTOPEN, PERM, READONLY, FULL, IOERR…: the file is sound, only out of reach for now.
            return .unavailable(location: location, detail: detail)
        }
    }
}
