import CSQLiteDefensive
import Foundation
import GRDB
import Glibc
import ScreenMatesGroupStore

/// How the store opens a file that every member who can write it may have changed by hand: no
/// symbolic link is followed, and every connection runs with SQLite's defensive settings.
///
/// - `PRAGMA trusted_schema = OFF`: SQL functions with side effects cannot run from the file's
///   schema (a view, a trigger, a CHECK, a default), only from the store's own statements.
/// - `SQLITE_DBCONFIG_DEFENSIVE`: this connection can no longer corrupt the file on purpose
///   (`writable_schema`, writes to `schema_version`, `journal_mode = OFF`…).
/// - No symbolic links: a member who can write the directory could otherwise replace the file, its
///   `-wal` or `-shm` companion or its lock with a link to a file only the victim can write (their
///   own local database), and the victim's program would write group rows into it.
///   `SQLITE_OPEN_NOFOLLOW` would make SQLite itself refuse a link, but GRDB's `Configuration`
///   offers no way to pass open flags to `sqlite3_open_v2`; so the store looks with `lstat` at the
///   file and its companions before it opens them and again once its connections are open, and
///   opens the ones it creates itself with `O_NOFOLLOW`. A member quick enough to swap a link in
///   and out between those looks could still win; that is one reason screenmates-groups(7) asks for a
///   directory only the group's members can enter.
enum SharedFileDefences {
    /// The files SQLite and the store open for a store at `path`.
    static func files(of path: String) -> [String] {
        [path, path + "-wal", path + "-shm", path + ".lock"]
    }

    /// Refuses a store whose file or companions are symbolic links.
    static func refuseSymbolicLinks(_ path: String) throws(GroupStoreError) {
        for file in files(of: path) {
            var info = stat()
            guard lstat(file, &info) == 0 else { continue }  // Missing: made by the store or SQLite.
            if (info.st_mode & S_IFMT) == S_IFLNK {
                let name = (file as NSString).lastPathComponent
                throw .unusable(
                    location: path,
                    detail:
                        "\(name) is a symbolic link, and the store follows none (a member could point it at a file of yours); put the real file there"
                )
            }
        }
    }

    /// Sets up one connection to the shared file: the schema is not trusted, defensive mode on.
    static func prepare(_ db: Database) throws {
        try db.execute(sql: "PRAGMA trusted_schema = OFF")
        guard let connection = db.sqliteConnection, sm_sqlite_enable_defensive(connection) == 1 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "SQLite refused its defensive mode")
        }
    }

    /// The settings every connection to the shared file gets.
    static func configure(_ configuration: inout Configuration) {
        configuration.prepareDatabase { db in try prepare(db) }
    }
}
