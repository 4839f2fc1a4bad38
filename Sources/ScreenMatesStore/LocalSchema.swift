import GRDB

/// The local database's schema, as migrations: a schema change is a new migration, never
/// "delete and start over".
enum LocalSchema {
    static func migrate(_ pool: DatabasePool, path: String) throws {
        let migrator = makeMigrator()
        let (superseded, complete) = try pool.read { db in
            (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
        }
        if superseded { throw StoreError.newerSchema(path: path) }
        // Migrating takes a write transaction; a database that is up to date is left alone, so
        // one that cannot be written (read-only file) still opens for reading.
        if !complete { try migrator.migrate(pool) }
    }

    /// One migration: the name a database records it by, and the SQL it runs.
    struct Migration: Sendable {
        let name: String
        let sql: String

        init(_ name: String, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// Every migration, in the order it runs. Released ones never change (name, order or SQL):
    /// a schema change is a new one at the end.
    static let migrations = [
        Migration("v1: events, profile, apps, history", sql: v1EventsProfileAppsHistory),
        Migration("v2: reset instants, day bounds, reconciled events, clock owner", sql: v2ResetInstantsAndDayBounds),
        Migration("v3: group membership, member version, leaderboard cache, sync state", sql: v3GroupMembership),
        Migration("v4: theme and notification channels", sql: v4ThemeAndNotificationChannels),
        Migration("v5: delivered notices", sql: v5DeliveredNotices),
        Migration("v6: the group store a membership was joined through", sql: v6MembershipStore),
        Migration("v7: applications seen by a usage source that match no tracked app", sql: v7SeenApps),
        Migration("v8: challenges, the coin ledger and badges", sql: v8ChallengesCoinsBadges),
        Migration("v9: group challenges, the public ranking, the games cache", sql: v9GroupGames),
        Migration("v10: pruned days, their per-app usage and the ids of their events", sql: v10PrunedDays),
        Migration("v11: the daily prune", sql: v11DailyPrune),
        Migration("v12: what a challenge does when its app is opened", sql: v12ChallengeWhenOpened),
        Migration("v13: challenges open to everyone on a group store", sql: v13OpenChallenges),
        Migration("v14: this home's machine among its member's machines", sql: v14ThisMachine),
        Migration(
            "v15: whether this machine takes the older versions' over; days restored from a group", sql: v15Machines),
        Migration("v16: what the member's other machines used, by day", sql: v16OtherMachineDays),
    ]

    static func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.name) { db in try db.execute(sql: migration.sql) }
        }
        return migrator
    }
}
