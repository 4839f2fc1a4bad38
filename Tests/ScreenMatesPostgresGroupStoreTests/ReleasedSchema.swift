import Foundation
import PostgresNIO
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The schema as the releases left a database: their fifteen level files as they shipped
/// (`Schemas/Released/`, every function of each level in it; the thirteenth to fifteenth with
/// what their migrator ran after the level), applied the way their migrator applied them.
/// Upgrade tests start from these, since this version's own files make only today's schema;
/// databases like them are out there, kept by members' servers.
enum ReleasedSchema {
    /// The newest level a release shipped.
    static let newestLevel = 15

    /// The oldest client level each released level served (`compatible_from`).
    static func compatibleFrom(_ level: Int) -> Int { level < 3 ? 1 : 3 }

    /// The level files, by level.
    static let files: [Int: URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Schemas/Released")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.compactMap { name -> (Int, URL)? in
                guard name.hasPrefix("v"), let level = Int(name.dropFirst().prefix { $0.isNumber }) else { return nil }
                return (level, folder.appendingPathComponent(name))
            })
    }()

    /// Brings the empty database at `address` to released level `level`, as that release did:
    /// its bootstrap, then each level's statements in one block and its row in
    /// `schema_migration`, in one transaction.
    static func install(upTo level: Int, in address: PostgresAddress) async throws {
        precondition((1...newestLevel).contains(level))
        try await PostgresTestServer.withConnection(to: address) { connection in
            let logger = Logger(label: "released schema")
            func run(_ sql: String) async throws {
                _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
            }
            try await run("BEGIN")
            try await run(
                PostgresSchemaMigrator.batch([
                    "CREATE SCHEMA IF NOT EXISTS screenmates",
                    """
                    CREATE TABLE IF NOT EXISTS screenmates.schema_migration (
                        version integer PRIMARY KEY,
                        summary text NOT NULL,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """,
                    "REVOKE ALL ON screenmates.schema_migration FROM PUBLIC",
                ]))
            for version in 1...level {
                let file = try #require(files[version], "Schemas/Released has no file for level \(version)")
                let statements = PostgresGroupSchema.statements(of: Array(try Data(contentsOf: file)))
                try await run(PostgresSchemaMigrator.batch(statements))
                if version == 1 {
                    try await run("INSERT INTO screenmates.schema_migration (version, summary) VALUES (1, 'released')")
                } else {
                    try await run(
                        """
                        INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
                        VALUES (\(version), 'released', \(compatibleFrom(version)))
                        """)
                }
            }
            try await run("COMMIT")
        }
    }
}
