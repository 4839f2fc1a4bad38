import Foundation
import ScreenMatesTestSupport
import Testing

/// The hostile-member suite on the real binary: ana, bo and eve each on a login role of their
/// own on one PostgreSQL server, as on three machines. eve, a member of ana's group, takes psql
/// and the user ids anyone in the group reads, and tries what mattered most in issue 23: renaming
/// ana (version out of reach), ana's day totals, a challenge whose rule says at most −1 blocks,
/// counters of 2^63−1, a name with a space — through the functions the schema grants, and straight
/// into the tables. Each is refused; and ana's programs keep running on her own data: her open
/// dashboard still shows the leaderboard (and her next blocks), `sync`, `status --json` and
/// `group show` exit 0 with her numbers as they were, and a `monitor` writing blocks does not
/// crash.
@Suite(
    .enabled(
        if: PostgresServer.url != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"))
struct PostgresHostileMemberEndToEndTests {
    typealias Server = PostgresGroupEndToEndTests.Server
    typealias Result = (status: Int32, stdout: String, stderr: String)

    /// One attack as eve's psql sends it, and the SQLSTATE it must be refused with (nil: the
    /// call goes through, storing nothing of it).
    struct Attack {
        let what: String
        let sql: String
        let refusal: String?
    }

    @Test(.timeLimit(.minutes(2)))
    func theVictimsProgramsKeepRunningOnHerOwnData() async throws {
        let server = try await Server()
        // A login role each, as on three machines: none owns the database.
        var logins: [String: String] = [:]
        for name in ["ana", "bo", "eve"] {
            let role =
                "e2e_\(name)_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
            let created = try await Self.psql(server.url, "CREATE ROLE \(role) LOGIN")
            #expect(created.status == 0, "\(created.stderr)")
            logins[name] = server.url.replacingOccurrences(of: "://screenmates@", with: "://\(role)@")
        }
        func run(_ name: String, _ arguments: [String]) async throws -> Result {
            try await Binary.run(
                arguments + ["--home", server.home(name)], environment: ["SCREENMATES_GROUP_STORE": logins[name]!])
        }
        func json(_ result: Result) throws -> [String: Any] {
            try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        }
        func anaInGroup() async throws -> [String: Any]? {
            let shown = try await run("ana", ["group", "show", "--json"])
            #expect(shown.status == 0, "\(shown.stderr)")
            let members = try json(shown)["members"] as? [[String: Any]] ?? []
            #expect(Set(members.compactMap { $0["name"] as? String }) == ["ana", "bo", "eve"], "\(shown.stdout)")
            return members.first { $0["isMe"] as? Bool == true }
        }

        try await server.member("ana")
        let created = try await run("ana", ["group", "create"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(
            created.stdout.split(separator: " ").last.map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            })
        for name in ["bo", "eve"] {
            let setup = try await run(name, ["setup", "--name", name] + Server.setupClock)
            #expect(setup.status == 0, "\(setup.stderr)")
            let joined = try await run(name, ["group", "join", code])
            #expect(joined.status == 0, "\(joined.stderr)")
        }

        // ana's dashboard runs (and publishes the simulated day's clock to her other commands).
        let screen = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": logins["ana"]!])
        try await screen.type("\(Binary.path) --home \(server.home("ana")) \(Server.dashboard)")
        try await screen.waitFor { $0.contains(" bo ") && $0.contains(" eve ") && $0.contains("synced") }
        var blocks = 0
        for seed in 1...60 where blocks == 0 {
            let monitor = try await Binary.run([
                "monitor", "--home", server.home("ana"), "--rate", "max", "--count", "1", "--seed", "\(seed)",
            ])
            #expect(monitor.status == 0, "\(monitor.stderr)")
            blocks = try json(try await run("ana", ["status", "--json"]))["blocksUsed"] as? Int ?? 0
        }
        #expect(blocks > 0, "the monitor gave ana a vice block")
        let synced = try await run("ana", ["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let before = try #require(try await anaInGroup())
        #expect(before["name"] as? String == "ana" && before["blocksUsed"] as? Int == blocks, "\(before)")

        // eve's psql: her own login, her own id and secret, ana's id as every member reads it.
        let eve = try Self.identity(in: server.home("eve"))
        let anaID = try Self.identity(in: server.home("ana")).userID
        let asAna = "'\(anaID)', '\(eve.secret)'"
        let asEve = "'\(eve.userID)', '\(eve.secret)'"
        let day = "(DATE '2026-11-21' - DATE '1970-01-01')::bigint"
        let ms = "(extract(epoch FROM TIMESTAMP '2026-11-21 10:00') * 1000)::bigint"
        let minusOne = #"'{"dailyBlocks":{"max":-1,"target":{"allVice":{}}}}'"#
        let attacks = [
            Attack(
                what: "renaming ana, streak 999, version out of reach",
                sql:
                    "SELECT screenmates.upsert_profile(\(asAna), 'bo_cheats', 0, \(day), 999, NULL, \(ms), 9007199254740992)",
                refusal: "SMWHO"),
            Attack(
                what: "ana's day totals, yesterday to tomorrow, 1440 blocks each",
                sql: """
                    SELECT screenmates.upsert_day_totals(\(asAna), '\(code)', ARRAY[\(day) - 1, \(day), \(day) + 1],
                        ARRAY[1440, 1440, 1440]::bigint[], ARRAY[1, 1, 1]::bigint[], ARRAY[99, 99, 99]::bigint[])
                    """,
                refusal: "SMWHO"),
            Attack(
                what: "ana leaving the group",
                sql: "SELECT screenmates.leave_group(\(asAna), '\(code)')", refusal: "SMWHO"),
            Attack(
                what: "a challenge at most −1 blocks, in ana's name",
                sql: """
                    SELECT screenmates.create_group_challenge(\(asAna), '\(code)', 'evil1', \(minusOne), \(day), 7, 0,
                        10000, NULL, \(ms))
                    """,
                refusal: "SMWHO"),
            Attack(
                what: "a challenge at most −1 blocks, as eve",
                sql: """
                    SELECT screenmates.create_group_challenge(\(asEve), '\(code)', 'evil2', \(minusOne), \(day), 7, 0,
                        10000, NULL, \(ms))
                    """,
                refusal: "SMVAL"),
            Attack(
                what: "2^63−1 blocks today",
                sql: """
                    SELECT screenmates.upsert_profile(\(asEve), 'eve', 9223372036854775807, \(day), 0, NULL, \(ms),
                        9000000000000)
                    """,
                refusal: "SMVAL"),
            Attack(
                what: "a streak of 2^63−1",
                sql: """
                    SELECT screenmates.upsert_profile(\(asEve), 'eve', 0, \(day), 9223372036854775807, NULL, \(ms),
                        9000000000001)
                    """,
                refusal: "SMVAL"),
            Attack(
                what: "2^63−1 coins",
                sql: "SELECT screenmates.report_standing(\(asEve), 'eve', 9223372036854775807, 0, true, 2, \(ms))",
                refusal: "SMVAL"),
            Attack(
                what: "2^63−1 blocks in a day total (left out of the batch)",
                sql: """
                    SELECT screenmates.upsert_day_totals(\(asEve), '\(code)', ARRAY[\(day)], ARRAY[9223372036854775807],
                        ARRAY[8]::bigint[], ARRAY[1]::bigint[])
                    """,
                refusal: nil),
            Attack(
                what: "a name with a space",
                sql: "SELECT screenmates.upsert_profile(\(asEve), 'e ve', 0, \(day), 0, NULL, \(ms), 9000000000002)",
                refusal: "SMVAL"),
            Attack(
                what: "a name with a space, straight into ana's row",
                sql: "UPDATE screenmates.member SET display_name = 'a b' WHERE user_id = '\(anaID)'",
                refusal: "42501"),
            Attack(
                what: "a −1 rule straight into the challenges",
                sql: """
                    INSERT INTO screenmates.group_challenge (code, id, creator_id, rule, first_day, days, reward, penalty,
                        created_at) VALUES ('\(code)', 'evil3', '\(anaID)', \(minusOne), \(day), 7, 0, 0, 0)
                    """,
                refusal: "42501"),
        ]
        for attack in attacks {
            let result = try await Self.psql(logins["eve"]!, attack.sql)
            if let refusal = attack.refusal {
                #expect(
                    result.status != 0 && result.stderr.contains("ERROR:  \(refusal):"),
                    "\(attack.what): \(result.stderr.isEmpty ? "it went through" : result.stderr)")
            } else {
                #expect(result.status == 0, "\(attack.what): \(result.stderr)")
            }
        }
        let eveDays = try await Self.psql(
            server.url, "SELECT count(*) FROM screenmates.day_total WHERE user_id = '\(eve.userID)'")
        #expect(eveDays.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(eveDays)")

        // ana's programs keep running, on her own data.
        let again = try await run("ana", ["sync"])
        #expect(again.status == 0, "\(again.stderr)")
        let status = try await run("ana", ["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try json(status)["blocksUsed"] as? Int == blocks, "\(status.stdout)")
        let after = try #require(try await anaInGroup())
        for key in ["name", "blocksUsed", "streak", "rank"] {
            #expect("\(after[key] ?? "none")" == "\(before[key] ?? "none")", "ana's \(key): \(before) → \(after)")
        }
        var more = blocks
        for seed in 100...160 where more == blocks {
            let monitor = try await Binary.run([
                "monitor", "--home", server.home("ana"), "--rate", "max", "--count", "2", "--seed", "\(seed)",
            ])
            #expect(monitor.status == 0, "the monitor writing ana's blocks: \(monitor.status) \(monitor.stderr)")
            more = try json(try await run("ana", ["status", "--json"]))["blocksUsed"] as? Int ?? 0
        }
        #expect(more > blocks, "the monitor went on writing ana's blocks")
        let board = try await screen.waitFor(timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(more)/8") }
        }
        #expect(
            board.contains(" bo ") && board.contains(" eve ") && !board.contains("offline")
                && !board.contains("bo_cheats"),
            "ana's dashboard shows the group's leaderboard, with her new blocks:\n\(board)")
        try await screen.keys("q")
    }

    /// The user id and secret in a home's `member-identity` file.
    static func identity(in home: String) throws -> (userID: String, secret: String) {
        let text = try String(contentsOfFile: home + "/member-identity", encoding: .utf8)
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        return (try #require(values["user_id"]), try #require(values["secret"]))
    }

    /// One statement through psql, its errors with their SQLSTATE (`ERROR:  SMWHO: …`).
    static func psql(_ url: String, _ sql: String) async throws -> Command.Result {
        try await Command.run(
            "/usr/bin/env",
            ["psql", "-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=verbose", url, "-c", sql])
    }
}
