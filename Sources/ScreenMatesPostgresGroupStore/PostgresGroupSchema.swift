import Foundation

/// The group store's schema on PostgreSQL, as numbered migrations that the program applies
/// itself, each once, in one transaction under an advisory lock (so two members starting at
/// once do not both migrate). A schema change is a new migration, never "drop and start over".
///
/// A schema records, with each migration, the oldest client version that may still use it
/// (`compatible_from`): a newer schema that is compatible is used as it is, so adding to the
/// schema never locks out members who have not updated yet.
///
/// Everything lives in the schema `screenmates`. Members never touch its tables: every
/// operation is one call of a `SECURITY DEFINER` function that first verifies the caller (the
/// user id must be bound to the calling login and to the hash of the secret sent with it; a new
/// id is bound on first use), then checks what it is given as every client would (names,
/// ranges, a challenge's rule, days that are today somewhere by the server's clock, quotas; a
/// code must name the group, a reader must be a member, a version must be newer), with a lock
/// timeout, and runs as one transaction. Only those functions are granted to `PUBLIC` (any role allowed to connect to the
/// database); the tables are granted to nobody and have row-level security turned on with no
/// policy, so even a table granted by mistake shows a non-owner no row. Wrong codes are written
/// down by the lookup functions themselves, so the rate limit cannot be skipped by a client.
///
/// Instants are milliseconds since 1970 and dates day numbers (days since 1970-01-01), both
/// `bigint`, exactly as the SQLite store keeps them. Every write to a group adds one to its
/// `change_seq` and notifies the group's channel (a random name the program generated, never
/// the code: anyone connected may listen on any channel) with the new value.
enum PostgresGroupSchema {
    /// One migration: its number, what it does, and its statements (constant text from a file
    /// in `Migrations/`, compiled in: nothing in them comes from input).
    struct Migration: Sendable {
        let version: Int
        let summary: String
        /// The oldest client schema version that may still use the schema this migration
        /// leaves (a client refuses only a newer schema that is not compatible with it).
        let compatibleFrom: Int
        let statements: [String]
    }

    /// Guards the migration transaction; any constant shared by every ScreenMates version.
    static let migrationLockKey: Int64 = 0x5343_5245_454E_4D54  // "SCREENMT"

    /// What runs before the migrations, in the same transaction.
    static let bootstrap: [String] = [
        "CREATE SCHEMA IF NOT EXISTS screenmates",
        """
        CREATE TABLE IF NOT EXISTS screenmates.schema_migration (
            version integer PRIMARY KEY,
            summary text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        "REVOKE ALL ON screenmates.schema_migration FROM PUBLIC",
    ]

    static var latestVersion: Int { migrations.last!.version }

    static let migrations: [Migration] = [
        Migration(
            version: 1, summary: "groups, members, day totals, failed attempts, the API", compatibleFrom: 1,
            statements: statements(of: PackageResources.v1_groups_sql)),
        // Adds only tables, columns with defaults and functions: the first version's clients
        // keep working with it.
        Migration(
            version: 2, summary: "group challenges, coins, the weekly settlement, the compatibility rule",
            compatibleFrom: 1, statements: statements(of: PackageResources.v2_games_sql)),
        // Every function now takes the caller's user id and secret and the old ones, which took
        // an id on trust, are gone: clients from before must update.
        Migration(
            version: 3, summary: "member identities, the server's own checks, quotas, restore and delete",
            compatibleFrom: 3, statements: statements(of: PackageResources.v3_identity_sql)),
        // Adds columns with defaults, triggers and functions: the third version's clients keep
        // working with it (the triggers stamp their writes too).
        Migration(
            version: 4, summary: "changes, not snapshots: every row stamped with the change that wrote it",
            compatibleFrom: 3, statements: statements(of: PackageResources.v4_changes_sql)),
        // Changes only the settings of two functions: the third version's clients keep working.
        Migration(
            version: 5, summary: "a lock timeout on every function members may call, the schema's level too",
            compatibleFrom: 3, statements: statements(of: PackageResources.v5_lock_timeouts_sql)),
        // Changes only how three reads verify their caller: the third version's clients keep working.
        Migration(
            version: 6, summary: "the most frequent reads verify their caller in one statement",
            compatibleFrom: 3, statements: statements(of: PackageResources.v6_fast_reads_sql)),
        // Adds tables, columns with defaults and functions: the third version's clients keep working.
        Migration(
            version: 7, summary: "challenges open to everyone on the store, published by its owner",
            compatibleFrom: 3, statements: statements(of: PackageResources.v7_open_challenges_sql)),
        // Adds a column and functions, drops a trigger; `settle_weeks` keeps its arguments and
        // answers: the third version's clients keep working.
        Migration(
            version: 8, summary: "a group keeps only the day totals a screen or the settlement still asks for",
            compatibleFrom: 3, statements: statements(of: PackageResources.v8_retention_sql)),
        // Adds a column, triggers and a function: the third version's clients keep working (and
        // their writes move the games' number too).
        Migration(
            version: 9, summary: "the games' own change number, read with the change marks in one call",
            compatibleFrom: 3, statements: statements(of: PackageResources.v9_games_mark_sql)),
        // Adds columns, triggers and a function in front of `settle_weeks`, which keeps its
        // arguments and answers: the third version's clients keep working.
        Migration(
            version: 10,
            summary: "a group settled for a day is not settled again that day until something that counts changed",
            compatibleFrom: 3, statements: statements(of: PackageResources.v10_settled_days_sql)),
        // Replaces two functions with the same arguments and answers: the third version's
        // clients keep working.
        Migration(
            version: 11, summary: "a member's question every 2 s is one function, planned once per connection",
            compatibleFrom: 3, statements: statements(of: PackageResources.v11_one_call_poll_sql)),
        // Replaces a trigger: the third version's clients keep working (their day totals are
        // stamped by it too).
        Migration(
            version: 12, summary: "a day total in a week no settlement has closed calls for no settlement",
            compatibleFrom: 3, statements: statements(of: PackageResources.v12_open_week_days_sql)),
    ]

    /// The statements of a migration file (`Migrations/*.sql`): separated by a line holding only
    /// `;`, so that the plpgsql bodies keep their own semicolons.
    static func statements(of file: [UInt8]) -> [String] {
        var statements: [String] = []
        var current: [Substring] = []
        for line in String(decoding: file, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces) == ";" {
                let statement = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty && !isOnlyComments(statement) { statements.append(statement) }
                current = []
            } else {
                current.append(line)
            }
        }
        return statements
    }

    private static func isOnlyComments(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
    }
}
