import Foundation
import GRDB
import ScreenMatesGroupStore

/// The shared group-store file's schema, as migrations: a schema change is a new migration,
/// never "delete and start over", since the file holds everyone's groups.
///
/// Instants are milliseconds since 1970 (INTEGER); dates are day numbers (days since
/// 1970-01-01, INTEGER), so comparing them is comparing numbers. Every write to a group adds one
/// to its `change_seq` in the same transaction: that is the group's change mark.
///
/// The first schema is GRDB's migration "v1"; what came after it are *levels* recorded in a
/// table of their own (`schema_level`: the version and the oldest client version it is
/// compatible with), because a GRDB migration the first version does not know would make it
/// refuse the file. A file at a newer level is used as it is when that level declares itself
/// compatible with this version, and refused otherwise.
enum SQLiteGroupSchema {
    /// The level this version brings a file to.
    static let latestLevel = 6
    /// Looks at the file before anything writes to it (opening a pool writes), through a
    /// read-only connection, and says whether its schema needs migrating. Another program's
    /// database (the local one given by mistake, say) or a newer version's is `.unusable` and
    /// left exactly as it is.
    static func needsMigration(path: String, busyTimeout: TimeInterval) throws -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "ScreenMates.groups.inspection"
        SharedFileDefences.configure(&configuration)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let migrator = makeMigrator()
        return try queue.read { db in
            try ForeignSchemaObjects.refuse(db, location: path)
            let applied = try migrator.appliedIdentifiers(db)
            let otherTables = try Row.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master
                    WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
                    """)
            let superseded = try migrator.hasBeenSuperseded(db)
            if applied.isDisjoint(with: migrator.migrations) && (!otherTables.isEmpty || superseded) {
                throw GroupStoreError.unusable(
                    location: path, detail: "it holds another kind of data; it is not a ScreenMates group store")
            }
            let level = try SQLiteGroupLevels.installed(db)
            if superseded || (level.version > latestLevel && level.compatibleFrom > latestLevel) {
                throw GroupStoreError.unusable(
                    location: path,
                    detail:
                        "it was written by a newer version of ScreenMates that this one cannot use; update ScreenMates")
            }
            // An up-to-date schema is not migrated (a write), so a file that may only be read
            // still opens.
            return try !migrator.hasCompletedMigrations(db) || level.version < latestLevel
        }
    }

    /// Brings the file to `latestLevel`: GRDB's migrations, then the levels, in one transaction
    /// each (the caller holds the file's lock, so no one else migrates at the same time). The
    /// levels' transaction makes sure first that no foreign trigger would run inside it.
    static func migrate(_ pool: DatabasePool, location: String) throws {
        try makeMigrator().migrate(pool)
        try pool.write { db in
            try ForeignSchemaObjects.refuse(db, location: location)
            try SQLiteGroupLevels.apply(db, upTo: latestLevel)
        }
    }

    static func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: groups, members, day totals, failed attempts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE group_info (
                        code TEXT PRIMARY KEY NOT NULL,
                        daily_goal_blocks INTEGER NOT NULL CHECK (daily_goal_blocks BETWEEN 1 AND 96),
                        created_at INTEGER NOT NULL,
                        change_seq INTEGER NOT NULL DEFAULT 1
                    );

                    CREATE TABLE member (
                        code TEXT NOT NULL REFERENCES group_info(code),
                        user_id TEXT NOT NULL,
                        display_name TEXT NOT NULL,
                        name_key TEXT NOT NULL,
                        blocks_today INTEGER NOT NULL CHECK (blocks_today >= 0),
                        day INTEGER NOT NULL,
                        streak INTEGER NOT NULL CHECK (streak >= 0),
                        last_active INTEGER,
                        last_updated INTEGER NOT NULL,
                        version INTEGER NOT NULL,
                        joined_at INTEGER NOT NULL,
                        PRIMARY KEY (code, user_id),
                        UNIQUE (code, name_key)
                    ) WITHOUT ROWID;
                    CREATE INDEX member_by_user ON member(user_id);

                    CREATE TABLE day_total (
                        code TEXT NOT NULL REFERENCES group_info(code),
                        user_id TEXT NOT NULL,
                        date INTEGER NOT NULL,
                        vice_blocks INTEGER NOT NULL CHECK (vice_blocks >= 0),
                        goal_blocks INTEGER NOT NULL CHECK (goal_blocks >= 0),
                        version INTEGER NOT NULL,
                        PRIMARY KEY (code, user_id, date)
                    ) WITHOUT ROWID;

                    -- Wrong codes tried, for the join rate limit (per user id, whatever the group).
                    CREATE TABLE failed_attempt (
                        user_id TEXT NOT NULL,
                        at INTEGER NOT NULL
                    );
                    CREATE INDEX failed_attempt_by_user ON failed_attempt(user_id, at);

                    -- The group each user joined last: what "not a member" names when a profile
                    -- comes from someone who is in no group any more.
                    CREATE TABLE last_group (
                        user_id TEXT PRIMARY KEY NOT NULL,
                        code TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}
