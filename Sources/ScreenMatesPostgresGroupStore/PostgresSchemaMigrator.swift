import PostgresNIO
import ScreenMatesGroupStore

/// Brings a database's `screenmates` schema up to `PostgresGroupSchema.latestVersion`.
///
/// It first asks `screenmates.schema_version()` (which any role may call): an up-to-date
/// schema is left alone, so a member whose role may not create anything still gets in. Else,
/// in one transaction holding an advisory lock, it applies each missing migration and records
/// it; a second process migrating at the same moment waits for the lock, then finds nothing to
/// do. A schema written by a newer version is never touched.
enum PostgresSchemaMigrator {
    static func migrate(connection: PostgresConnection, location: String, user: String) async throws {
        let logger = Logger(label: "ScreenMates.groups.postgres.migration")
        let latest = Int64(PostgresGroupSchema.latestVersion)
        let current = try await installedVersion(connection, logger: logger)
        if current == latest { return }
        if current > latest { throw newer(location) }
        do {
            _ = try await connection.query("BEGIN", logger: logger)
            do {
                try await applyMigrations(connection, latest: latest, location: location, logger: logger)
                _ = try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
            throw GroupStoreError.unusable(
                location: location,
                detail:
                    "its ScreenMates schema is missing or older than this version, and the role \"\(user)\" may not "
                    + "create it; connect once as the database's owner (any screenmates command does it)")
        }
    }

    private static func applyMigrations(
        _ connection: PostgresConnection, latest: Int64, location: String, logger: Logger
    ) async throws {
        _ = try await connection.query(
            "SELECT pg_advisory_xact_lock(\(PostgresGroupSchema.migrationLockKey))", logger: logger)
        for statement in PostgresGroupSchema.bootstrap {
            _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        let rows = try await connection.query(
            "SELECT coalesce(max(version), 0)::bigint FROM screenmates.schema_migration", logger: logger
        ).collect()
        let applied = try rows.first?.decode(Int64.self) ?? 0
        if applied > latest { throw newer(location) }
        for migration in PostgresGroupSchema.migrations where migration.version > applied {
            for statement in migration.statements {
                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            _ = try await connection.query(
                """
                INSERT INTO screenmates.schema_migration (version, summary)
                VALUES (\(migration.version), \(migration.summary))
                """, logger: logger)
        }
    }

    /// The schema's version; 0 when there is none yet.
    private static func installedVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        do {
            let rows = try await connection.query("SELECT screenmates.schema_version()::bigint", logger: logger)
                .collect()
            return try rows.first?.decode(Int64.self) ?? 0
        } catch let error as PSQLError {
            // No schema (3F000), no function (42883) or no table behind it (42P01): not set up.
            if let state = error.serverInfo?[.sqlState], ["3F000", "42883", "42P01"].contains(state) { return 0 }
            throw error
        }
    }

    private static func newer(_ location: String) -> GroupStoreError {
        .unusable(
            location: location,
            detail: "it was set up by a newer version of ScreenMates; update ScreenMates to use it")
    }
}
