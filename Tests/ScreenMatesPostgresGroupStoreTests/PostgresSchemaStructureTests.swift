import Foundation
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The schema as one statement (`Schemas/structure.sql`, beside this file): what a fresh install
/// leaves, and what
/// every upgrade from a released level leaves too, compared as normalised schema-only dumps.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresSchemaStructureTests {
    /// With this variable set to 1, the fresh install's statement is written to
    /// `Schemas/structure.sql` instead of compared (and the test records an issue saying so).
    static let updateVariable = "SCREENMATES_UPDATE_SCHEMA"

    static let structureFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Schemas/structure.sql")

    /// The statement's first lines: what it is and how it is made.
    static let header = """
        -- The group store's schema on PostgreSQL at level \(PostgresGroupSchema.latestVersion), as a fresh install and every
        -- upgrade leave it: `pg_dump --schema-only --schema=screenmates --no-owner`, without the lines
        -- naming versions and psql's restrict key. Generated, never edited: the functions live in
        -- Sources/ScreenMatesPostgresGroupStore/Schema/Functions/, the tables in its Migrations/. PostgresSchemaStructureTests compares it with a fresh
        -- install; SCREENMATES_UPDATE_SCHEMA=1 swift test --filter PostgresSchemaStructureTests
        -- writes it again.

        """

    /// A fresh database migrated by this version, as a normalised dump.
    private static func freshStructure() async throws -> String {
        let address = try await PostgresTestServer.newDatabase()
        let store = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
        try await store.prepare()
        await store.close()
        return try await SchemaDump.normalised(address)
    }

    @Test func theStatementOfTheSchemaIsWhatAFreshInstallLeaves() async throws {
        let fresh = Self.header + (try await Self.freshStructure())
        if ProcessInfo.processInfo.environment[Self.updateVariable] == "1" {
            try fresh.write(to: Self.structureFile, atomically: true, encoding: .utf8)
            Issue.record("Rewrote \(Self.structureFile.lastPathComponent); read its diff, then run again without it.")
            return
        }
        let stated = try String(contentsOf: Self.structureFile, encoding: .utf8)
        guard stated != fresh else { return }
        let difference = SchemaDump.firstDifference(stated, fresh)
        Issue.record(
            """
            Schemas/structure.sql is not what a fresh install leaves (\(difference)). If the change is meant, \
            run \(Self.updateVariable)=1 swift test --filter PostgresSchemaStructureTests and read the diff.
            """)
    }

    /// A database at each level a release left it, upgraded by this version, ends with exactly
    /// the schema a fresh install makes: the same tables, columns, constraints, indexes,
    /// functions, triggers and grants, and nothing more.
    @Test(arguments: 1...ReleasedSchema.newestLevel)
    func aReleasedLevelUpgradesToTheSchemaAFreshInstallMakes(level: Int) async throws {
        let fresh = try await Self.freshStructure()
        let address = try await PostgresTestServer.newDatabase()
        try await ReleasedSchema.install(upTo: level, in: address)
        let store = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
        try await store.prepare()
        await store.close()
        let upgraded = try await SchemaDump.normalised(address)
        #expect(upgraded == fresh, "level \(level): \(SchemaDump.firstDifference(fresh, upgraded))")
    }
}

/// A database's `screenmates` schema as `pg_dump` states it, normalised: its version lines out.
enum SchemaDump {
    /// `pg_dump` of the test server's own version (PostgreSQL's packages keep one per version).
    static var pgDump: String {
        let installed = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let versions = installed.compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let path = "/usr/lib/postgresql/\(version)/bin/pg_dump"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return "/usr/bin/pg_dump"
    }

    static func normalised(_ address: PostgresAddress) async throws -> String {
        var arguments = ["--schema-only", "--schema=screenmates", "--no-owner", "-U", address.user]
        switch address.endpoint {
        case .socket(let directory, let port): arguments += ["-h", directory, "-p", String(port)]
        case .tcp(let host, let port): arguments += ["-h", host, "-p", String(port)]
        }
        arguments.append(address.database)
        let result = try await Command.run(pgDump, arguments)
        try #require(result.status == 0, "pg_dump failed: \(result.stderr)")
        return normalised(result.stdout)
    }

    /// Without the lines naming pg_dump's and the server's versions, which change with every
    /// minor release, and the random key of psql's `\restrict` guard (pg_dump 15.14 on): neither
    /// says anything of the schema.
    static func normalised(_ dump: String) -> String {
        let dropped = [
            "-- Dumped from database version", "-- Dumped by pg_dump version", "\\restrict ", "\\unrestrict ",
        ]
        return dump.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !dropped.contains { line.hasPrefix($0) } }
            .joined(separator: "\n")
    }

    /// Where two statements first part, for a failure's message.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let (left, right) = (expected.split(separator: "\n"), actual.split(separator: "\n"))
        for index in 0..<max(left.count, right.count) {
            let (a, b) = (index < left.count ? left[index] : "(end)", index < right.count ? right[index] : "(end)")
            if a != b { return "line \(index + 1): expected \"\(a)\", found \"\(b)\"" }
        }
        return "no line differs"
    }
}
