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
/// each missing level and records it, then drops every function and makes them again from their
/// files (`PostgresGroupSchema`); a second process migrating at the same moment waits for the
/// lock, then finds nothing to do. A newer schema is never touched.
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
    static func isCurrent(_ connection: PostgresConnection) async throws -> Bool {
        try await installedLevel(connection, logger: logger).admits(clientAt: latest)
    }

    /// The level this version brings a schema to.
    private static var latest: Int64 { Int64(PostgresGroupSchema.latestVersion) }

    static func migrate(connection: PostgresConnection, location: String, user: String) async throws {
        let current = try await installedLevel(connection, logger: logger)
        if current.admits(clientAt: latest) { return }
        if current.version > latest { throw newer(location) }
        do {
            try await run("BEGIN", on: connection)
            do {
                try await applyMigrations(connection, location: location, logger: logger)
                try await run("COMMIT", on: connection)
            } catch {
                try? await run("ROLLBACK", on: connection)
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

    private static func applyMigrations(_ connection: PostgresConnection, location: String, logger: Logger)
        async throws
    {
        try await run("SELECT pg_advisory_xact_lock(\(PostgresGroupSchema.migrationLockKey))", on: connection)
        try await run(PostgresQuery(unsafeSQL: batch(PostgresGroupSchema.bootstrap)), on: connection)
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
            try await run(PostgresQuery(unsafeSQL: batch(migration.statements)), on: connection)
            // The first migration predates the `compatible_from` column (the second adds it,
            // with 1 for the rows before it).
            if migration.version == 1 {
                try await run(
                    """
                    INSERT INTO screenmates.schema_migration (version, summary)
                    VALUES (\(migration.version), \(migration.summary))
                    """, on: connection)
            } else {
                try await run(
                    """
                    INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
                    VALUES (\(migration.version), \(migration.summary), \(migration.compatibleFrom))
                    """, on: connection)
            }
        }
        // The functions, as their files hold them, whatever level the schema came from.
        try await run(PostgresQuery(unsafeSQL: batch(PostgresGroupSchema.functionStatements)), on: connection)
    }

    /// `statements` as one: a `DO` block that `EXECUTE`s each in turn, in the transaction it runs
    /// in. The extended protocol postgres-nio speaks takes one statement per query, and a
    /// migration has dozens (the functions alone are over a hundred statements): one round trip each made a
    /// first migration take as many round trips as statements — over 60 s in a test run that
    /// migrates dozens of databases at once on two cores, and 11 s for a server 50 ms away.
    /// Each statement is quoted with a dollar tag it does not contain.
    static func batch(_ statements: [String]) -> String {
        func tag(_ base: String, avoiding taken: [String]) -> String {
            var number = 0
            while taken.contains(where: { $0.contains("$\(base)\(number)$") }) { number += 1 }
            return "$\(base)\(number)$"
        }
        let outer = tag("screenmates_migration_", avoiding: statements)
        let inner = tag("statement_", avoiding: statements + [outer])
        let body = statements.map { "EXECUTE \(inner)\($0)\(inner);\n" }.joined()
        return "DO \(outer)\nBEGIN\n\(body)END\n\(outer)"
    }

    /// Runs one statement and reads its answer to the end.
    private static func run(_ statement: PostgresQuery, on connection: PostgresConnection) async throws {
        _ = try await connection.query(statement, logger: logger).collect()
    }

    /// The schema's level; `.none` when there is none yet.
    static func installedLevel(_ connection: PostgresConnection, logger: Logger) async throws -> Level {
        do {
            let rows = try await connection.query(
                "SELECT version::bigint, compatible_from::bigint FROM screenmates.schema_level()", logger: logger
            ).collect()
            guard let row = rows.first else { return .none }
            let (version, compatibleFrom) = try row.decode((Int64, Int64).self)
            return Level(version: version, compatibleFrom: compatibleFrom)
        } catch let error as PSQLError {
            guard let state = error.serverInfo?[.sqlState] else { throw error }
            // No schema (3F000) or no table behind it (42P01): not set up.
            if ["3F000", "42P01"].contains(state) { return .none }
            // No such function (42883): a schema from before the rule, or none.
            guard state == "42883" else { throw error }
        }
        do {
            let rows = try await connection.query("SELECT screenmates.schema_version()::bigint", logger: logger)
                .collect()
            let version = try rows.first?.decode(Int64.self) ?? 0
            return Level(version: version, compatibleFrom: version)
        } catch let error as PSQLError {
            if let state = error.serverInfo?[.sqlState], ["3F000", "42883", "42P01"].contains(state) { return .none }
            throw error
        }
    }

    private static func newer(_ location: String) -> GroupStoreError {
        .unusable(
            location: location,
            detail: "it was set up by a newer version of ScreenMates that this one cannot use; update ScreenMates")
    }
}
