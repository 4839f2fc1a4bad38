import Foundation
import GRDB
import ScreenMatesTestSupport
import Testing

/// Logging in to a PostgreSQL group store from the command line, on a server that asks for
/// passwords (`.ci/postgres start-login`, started for the test): a password given once in the
/// URL is never remembered, later commands take it from `PGPASSWORD`, and a refused login is
/// said as the server said it.
@Suite(
    .enabled(
        if: PostgresServer.url != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"))
struct PostgresLoginEndToEndTests {
    @Test func aPasswordInTheURLIsNotRememberedAndLaterCommandsUsePGPASSWORD() async throws {
        try await PostgresServer.withOwnServer("start-login") { _, started in
            try #require(started.status == 0, "\(started.stderr)")
            let admin = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let port = try #require(admin.split(separator: "=").last.map(String.init))
            for statement in ["CREATE ROLE ana LOGIN PASSWORD 'ana-pw'", "CREATE DATABASE groups OWNER ana"] {
                let created = try await Command.run("/usr/bin/env", ["psql", "-q", admin, "-c", statement])
                try #require(created.status == 0, "psql: \(created.stderr)")
            }
            let home = Binary.Home()
            // No password from the test runner's environment: only what each command is given.
            func run(_ arguments: [String], _ environment: [String: String] = [:]) async throws -> (
                status: Int32, stdout: String, stderr: String
            ) {
                try await Binary.run(
                    arguments + ["--home", home.path],
                    environment: ["PGPASSFILE": "/nonexistent"].merging(environment) { $1 },
                    removing: ["PGPASSWORD", "SCREENMATES_GROUP_STORE"])
            }
            #expect(try await run(["setup", "--name", "ana"]).status == 0)
            let store = "postgres://ana@127.0.0.1:\(port)/groups"
            let created = try await run([
                "group", "create", "--group-store", "postgres://ana:ana-pw@127.0.0.1:\(port)/groups",
            ])
            #expect(created.status == 0, "\(created.stderr)")

            let config = try await run(["config"])
            #expect(config.stdout.contains("# group store: \(store) "), "\(config.stdout)")
            #expect(!config.stdout.contains("ana-pw") && !config.stdout.contains("…"), "\(config.stdout)")

            let shown = try await run(["group", "show"], ["PGPASSWORD": "ana-pw"])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("ana (you)"), "\(shown.stdout)")

            let without = try await run(["group", "show"])
            #expect(without.status != 0)
            #expect(without.stderr.contains("asks for a password"), "\(without.stderr)")
            let wrong = try await run(["sync"], ["PGPASSWORD": "not-it"])
            #expect(wrong.status == 70)
            #expect(wrong.stderr.contains("password authentication failed for user \"ana\""), "\(wrong.stderr)")
            #expect(!wrong.stderr.contains("reach"), "\(wrong.stderr)")

            // A home of an earlier version remembered the URL with `…` for the password: it is read
            // as no password, and PGPASSWORD gives the real one.
            let database = try DatabaseQueue(path: home.path + "/local.sqlite")
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE profile SET group_store = ?", arguments: ["postgres://ana:…@127.0.0.1:\(port)/groups"])
            }
            try database.close()
            let synced = try await run(["sync"], ["PGPASSWORD": "ana-pw"])
            #expect(synced.status == 0, "\(synced.stderr)")
        }
    }
}
