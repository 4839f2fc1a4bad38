import PostgresNIO
import ScreenMatesGroupStore

/// Brings a database's `screenmates` schema up to `PostgresGroupSchema.latestVersion`.
///
/// It first asks the schema for its level — its version and the oldest client version it is
/// compatible with (`screenmates.schema_level()`, or, on a schema from before that rule,
/// `screenmates.schema_version()`; any role may call them): an up-to-date schema is left alone,
/// so a member whose role may not create anything still gets in; so is a newer schema that
/// declares itself compatible with this version, which it then uses; only a newer schema that
/// is not compatible is refused. Else, in one transaction holding an advisory lock, it applies
/// each missing migration and records it; a second process migrating at the same moment waits
/// for the lock, then finds nothing to do. A newer schema is never touched.
enum PostgresSchemaMigrator {
    /// A schema's version, and the oldest client schema version that may still use it.
    struct Level: Equatable {
        var version: Int64
        var compatibleFrom: Int64

        static let none = Level(version: 0, compatibleFrom: 0)

        /// Whether a client whose newest migration is `latest` may use it as it is.
        func admits(clientAt latest: Int64) -> Bool {
            version == latest || (version > latest && compatibleFrom <= latest)
        }
    }

    private static let logger = Logger(label: "ScreenMates.groups.postgres.migration")

    /// Whether the schema serves a client at `latest` as it is: the one question asked on
    /// every start, answered in one query (a migration takes far longer, and only then).
    static func isCurrent(
        _ connection: PostgresConnection, upTo latest: Int64 = Int64(PostgresGroupSchema.latestVersion)
    ) async throws -> Bool {
        try await installedLevel(connection, logger: logger).admits(clientAt: latest)
    }

    /// - Parameter latest: the version to bring the schema to (tests stop earlier, to stand for
    ///   an older client).
    static func migrate(
        connection: PostgresConnection, location: String, user: String,
        upTo latest: Int64 = Int64(PostgresGroupSchema.latestVersion)
    ) async throws {
        let current = try await installedLevel(connection, logger: logger)
        if current.admits(clientAt: latest) { return }
        if current.version > latest { throw newer(location) }
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
        // The table's newest row, whether or not it has the column the compatibility rule added.
        let rows = try await connection.query(
            """
            SELECT m.version::bigint, coalesce((to_jsonb(m) ->> 'compatible_from')::bigint, m.version::bigint)
            FROM screenmates.schema_migration m ORDER BY m.version DESC LIMIT 1
            """, logger: logger
        ).collect()
        let applied =
            try rows.first.map { row in
                let (version, compatibleFrom) = try row.decode((Int64, Int64).self)
                return Level(version: version, compatibleFrom: compatibleFrom)
            } ?? .none
        if applied.admits(clientAt: latest) { return }
        if applied.version > latest { throw newer(location) }
        for migration in PostgresGroupSchema.migrations where migration.version > applied.version {
            guard migration.version <= latest else { break }
            for statement in migration.statements {
                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            // The first migration predates the `compatible_from` column (the second adds it,
            // with 1 for the rows before it).
            if migration.version == 1 {
                _ = try await connection.query(
                    """
                    INSERT INTO screenmates.schema_migration (version, summary)
                    VALUES (\(migration.version), \(migration.summary))
                    """, logger: logger)
            } else {
                _ = try await connection.query(
                    """
                    INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
                    VALUES (\(migration.version), \(migration.summary), \(migration.compatibleFrom))
                    """, logger: logger)
            }
        }
    }

    /// The schema's level; `.none` when there is none yet.
    ///
    /// The catalog is asked first which of the two functions there is, so that a database
    /// without the schema (every new one) answers without an error: with postgres-nio 1.33, an
    /// error answered on a connection of its own could leave that connection's next query
    /// waiting for ever on a loaded machine (see `PostgresClient.rows` for the pool's side).
    static func installedLevel(_ connection: PostgresConnection, logger: Logger) async throws -> Level {
        let found = try await connection.query(
            """
            SELECT to_regprocedure('screenmates.schema_level()') IS NOT NULL,
                to_regprocedure('screenmates.schema_version()') IS NOT NULL
            """, logger: logger
        ).collect()
        let (hasLevel, hasVersion) = try found.first?.decode((Bool, Bool).self) ?? (false, false)
        if hasLevel {
            let rows = try await connection.query(
                "SELECT version::bigint, compatible_from::bigint FROM screenmates.schema_level()", logger: logger
            ).collect()
            guard let row = rows.first else { return .none }
            let (version, compatibleFrom) = try row.decode((Int64, Int64).self)
            return Level(version: version, compatibleFrom: compatibleFrom)
        }
        // A schema from before the rule.
        guard hasVersion else { return .none }
        let rows = try await connection.query("SELECT screenmates.schema_version()::bigint", logger: logger)
            .collect()
        let version = try rows.first?.decode(Int64.self) ?? 0
        return Level(version: version, compatibleFrom: version)
    }

    private static func newer(_ location: String) -> GroupStoreError {
        .unusable(
            location: location,
            detail: "it was set up by a newer version of ScreenMates that this one cannot use; update ScreenMates")
    }
}
