import Foundation
import ScreenMatesTestSupport
import Testing

/// A challenge open to all on a PostgreSQL server, with the real binary and psql: the store's
/// owner (the role that owns the schema) publishes it; ana and eve, each on a login role of their
/// own, join it. eve's `challenge publish` is refused, and so is everything her psql tries —
/// publishing through the function, joining or reporting in ana's name, values out of range, a
/// bad name, writing the tables straight — while ana's `challenge show` and `status --json` keep
/// showing the board as it is.
@Suite(
    .enabled(
        if: PostgresServer.url != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"))
struct PostgresOpenChallengeEndToEndTests {
    typealias Server = PostgresGroupEndToEndTests.Server
    typealias Hostile = PostgresHostileMemberEndToEndTests

    @Test(.timeLimit(.minutes(2)))
    func theOwnerPublishesAndAMembersLoginCannotCheat() async throws {
        let server = try await Server()
        var logins: [String: String] = ["olga": server.url]
        for name in ["ana", "eve"] {
            let role =
                "e2e_\(name)_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
            let created = try await Hostile.psql(server.url, "CREATE ROLE \(role) LOGIN")
            #expect(created.status == 0, "\(created.stderr)")
            logins[name] = server.url.replacingOccurrences(of: "://screenmates@", with: "://\(role)@")
        }
        /// The standard output of a command that succeeds, the error output of one that fails.
        func run(_ name: String, _ arguments: [String], expecting status: Int32 = 0) async throws -> String {
            let result = try await Binary.run(
                arguments + ["--home", server.home(name)], environment: ["SCREENMATES_GROUP_STORE": logins[name]!])
            #expect(result.status == status, "\(name) \(arguments): \(result.stderr)")
            return status == 0 ? result.stdout : result.stderr
        }
        for name in ["olga", "ana", "eve"] {
            _ = try await run(name, ["setup", "--name", name] + Server.setupClock)
        }
        _ = try await run("ana", ["group", "create", "--start-at", "2026-11-21T09:05"])

        // The owner publishes (first day: tomorrow); a member's login may not.
        let published = try await run(
            "olga", ["challenge", "publish", "--at-most", "1", "--days", "2", "--start-at", "2026-11-21T09:10"])
        let id = try #require(published.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        let refused = try await run(
            "eve", ["challenge", "publish", "--streak", "--start-at", "2026-11-21T09:11"], expecting: 1)
        #expect(refused.contains("Only the owner of the group store"), "\(refused)")
        for name in ["ana", "eve"] {
            let joined = try await run(name, ["challenge", "join", id, "--start-at", "2026-11-21T09:20"])
            #expect(joined.contains("Joined challenge \(id)"), "\(joined)")
        }

        // eve's psql: her own login, her own id and secret, ana's id as a board never shows it
        // (but a group does).
        let eve = try Hostile.identity(in: server.home("eve"))
        let anaID = try Hostile.identity(in: server.home("ana")).userID
        let asAna = "'\(anaID)', '\(eve.secret)'"
        let asEve = "'\(eve.userID)', '\(eve.secret)'"
        let day = "(DATE '2026-11-21' - DATE '1970-01-01')::bigint"
        let ms = "(extract(epoch FROM TIMESTAMP '2026-11-21 10:00') * 1000)::bigint"
        let attacks: [(what: String, sql: String, refusal: String)] = [
            (
                "publishing through the function",
                """
                SELECT screenmates.publish_open_challenge(\(asEve), 'evetrap1', '{"streak":{}}', \(day) + 1, 30, 0,
                    10000, NULL, \(ms))
                """, "SMOWN"
            ),
            (
                "ana forfeiting",
                "SELECT screenmates.report_open_participant(\(asAna), '\(id)', 'forfeited', 0, \(ms))", "SMWHO"
            ),
            (
                "joining as ana under another name",
                "SELECT * FROM screenmates.join_open_challenge(\(asAna), '\(id)', 'ana_cheats', \(day), \(ms))", "SMWHO"
            ),
            (
                "366 days kept", "SELECT screenmates.report_open_participant(\(asEve), '\(id)', 'in', 366, NULL)",
                "SMVAL"
            ),
            (
                "a state no client knows",
                "SELECT screenmates.report_open_participant(\(asEve), '\(id)', 'won', 0, NULL)", "SMVAL"
            ),
            (
                "a name with a space",
                "SELECT * FROM screenmates.join_open_challenge(\(asEve), '\(id)', 'e ve', \(day), \(ms))", "SMVAL"
            ),
            (
                "ana failed, straight into the table",
                "UPDATE screenmates.open_participant SET state = 'failed' WHERE user_id = '\(anaID)'", "42501"
            ),
            (
                "a line of her own, straight into the table",
                """
                INSERT INTO screenmates.open_participant (challenge_id, user_id, display_name, name_key, state,
                    days_kept, joined_at) VALUES ('\(id)', 'zed23456', 'zed', 'zed', 'finished', 2, 0)
                """, "42501"
            ),
        ]
        for attack in attacks {
            let result = try await Hostile.psql(logins["eve"]!, attack.sql)
            #expect(
                result.status != 0 && result.stderr.contains("ERROR:  \(attack.refusal):"),
                "\(attack.what): \(result.stderr.isEmpty ? "it went through" : result.stderr)")
        }

        // ana's programs still show the board as it is.
        let show = try await run("ana", ["challenge", "show", id, "--json", "--start-at", "2026-11-21T11:00"])
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(show.utf8)) as? [String: Any], "\(show)")
        let lines = entry["participants"] as? [[String: Any]] ?? []
        #expect(
            lines.map { "\($0["name"] ?? "") \($0["state"] ?? "")" }.sorted() == ["ana still in", "eve still in"],
            "\(show)")
        let status = try await run("ana", ["status", "--json", "--start-at", "2026-11-21T11:01"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
        #expect((object["openChallenges"] as? [[String: Any]])?.map { $0["id"] as? String } == [id], "\(status)")
    }
}
