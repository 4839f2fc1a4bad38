import Foundation
import Testing

/// A group challenge on the real binary: two homes, one shared group-store file. Bo's monitor
/// breaks the rule in his home, `screenmates sync` tells the group, and Ana's `challenge show`
/// and `status --json` show him failed while she is still in — and the group store holds no app
/// name of theirs.
@Suite struct GroupChallengeEndToEndTests {
    @Test func oneBreaksTheRuleAndTheOtherSeesIt() async throws {
        let (ana, bo) = (Binary.Home(), Binary.Home())
        let shared = Binary.SharedStore()
        let store = ["--group-store", shared.path]
        _ = try await ana.succeed(["setup", "--name", "ana", "--start-at", "2026-11-21T08:00"])
        _ = try await bo.succeed(["setup", "--name", "bo", "--start-at", "2026-11-21T08:00"])
        let created = try await ana.succeed(["group", "create", "--start-at", "2026-11-21T08:01"] + store)
        let code = try #require(created.split(separator: " ").dropFirst(2).first.map(String.init), "\(created)")
        _ = try await bo.succeed(["group", "join", code, "--start-at", "2026-11-21T08:02"] + store)

        // Ana shares a challenge for tomorrow; Bo joins it today.
        let challenge = try await ana.succeed([
            "challenge", "create", "--group", "--at-most", "1", "--days", "2", "--start-at", "2026-11-21T08:10",
        ])
        let id = try #require(challenge.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        #expect(id.count == 6, "\(challenge)")
        let open = try await bo.succeed(["challenge", "list", "--start-at", "2026-11-21T08:20"])
        #expect(open.contains("open: join it with `screenmates challenge join \(id)`"), "\(open)")
        let joined = try await bo.succeed(["challenge", "join", id, "--start-at", "2026-11-21T08:21"])
        #expect(joined.contains("Joined challenge \(id)"), "\(joined)")

        // Bo's monitor records his day (many blocks); his home decides; sync tells the group.
        _ = try await bo.succeed([
            "monitor", "--start-at", "2026-11-22T09:00", "--rate", "max", "--count", "30", "--seed", "3",
        ])
        _ = try await bo.succeed(["sync", "--start-at", "2026-11-22T20:00"])

        let show = try await ana.json(["challenge", "show", id, "--start-at", "2026-11-22T21:00"])
        #expect(participantStates(show) == ["ana": "still in", "bo": "failed"], "\(show)")
        #expect(show["group"] as? String == code && show["joined"] as? Bool == true)
        let text = try await ana.succeed(["challenge", "show", id, "--start-at", "2026-11-22T21:01"])
        #expect(text.contains("1 still in, 1 failed"), "\(text)")

        let status = try await ana.json(["status", "--start-at", "2026-11-22T21:02"])
        let challenges = status["challenges"] as? [[String: Any]] ?? []
        #expect(
            participantStates(challenges.first { $0["id"] as? String == id }) == ["ana": "still in", "bo": "failed"])
        #expect((status["coins"] as? [String: Any])?["balance"] as? Int == 0, "\(status)")
        #expect(status["badges"] is [Any])
        #expect((status["week"] as? [String: Any])?["weekStart"] as? String == "monday", "\(status)")

        // What the group store holds of them: states and counts, never an app.
        var bytes = Data()
        for suffix in ["", "-wal"] { bytes += FileManager.default.contents(atPath: shared.path + suffix) ?? Data() }
        let content = String(decoding: bytes, as: UTF8.self).lowercased()
        for app in ["tiktok", "instagram", "youtube", "reddit", "duolingo", "kindle", "notion"] {
            #expect(!content.contains(app), "the group store holds \(app)")
        }

        // Bo's penalty was booked once; his coins say so.
        let coins = try await bo.json(["coins", "--start-at", "2030-01-01T00:00"])
        let penalties = (coins["transactions"] as? [[String: Any]] ?? []).filter {
            ($0["cause"] as? String) == "challenge \(id)"
        }
        #expect(penalties.map { $0["asked"] as? Int } == [-25], "\(coins)")
    }

    /// On screen, live: Ana watches the challenges screen (`c`) of her dashboard while Bo breaks
    /// the rule in his home; once his `sync` has told the group, her screen says he failed,
    /// without a key (the group's change signal brings it).
    @Test func aMateBreakingTheRuleShowsOnTheChallengesScreenLive() async throws {
        let (ana, bo) = (Binary.Home(), Binary.Home())
        let shared = Binary.SharedStore()
        let store = ["--group-store", shared.path]
        _ = try await ana.succeed(["setup", "--name", "ana", "--start-at", "2026-11-21T08:00"])
        _ = try await bo.succeed(["setup", "--name", "bo", "--start-at", "2026-11-21T08:00"])
        let created = try await ana.succeed(["group", "create", "--start-at", "2026-11-21T08:01"] + store)
        let code = try #require(created.split(separator: " ").dropFirst(2).first.map(String.init), "\(created)")
        _ = try await bo.succeed(["group", "join", code, "--start-at", "2026-11-21T08:02"] + store)
        let challenge = try await ana.succeed([
            "challenge", "create", "--group", "--at-most", "1", "--days", "2", "--start-at", "2026-11-21T08:10",
        ])
        let id = try #require(challenge.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        _ = try await bo.succeed(["challenge", "join", id, "--start-at", "2026-11-21T08:21"])

        let screen = try await Tmux()
        try await screen.type(
            "\(Binary.path) --home \(ana.path) dashboard --speed 1 --start-at 2026-11-22T09:00")
        try await screen.waitFor("coins")
        try await screen.keys("c")
        let before = try await screen.waitFor { $0.contains(" bo ") && $0.contains("still in") }
        #expect(!before.contains("failed"), "\(before)")

        _ = try await bo.succeed([
            "monitor", "--start-at", "2026-11-22T09:00", "--rate", "max", "--count", "30", "--seed", "3",
        ])
        _ = try await bo.succeed(["sync", "--start-at", "2026-11-22T20:00"])
        let after = try await screen.waitFor(timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.contains(" bo ") && $0.contains("failed") }
        }
        let anaRow = after.split(separator: "\n").first { $0.contains("ana (you)") }
        #expect(anaRow?.contains("still in") == true, "\(after)")
        try await screen.keys("Escape", "q")
    }

    @Test func aGroupChallengeIsRefusedWithAReason() async throws {
        let home = Binary.Home()
        _ = try await home.succeed(["setup", "--name", "ana"])
        let cases: [([String], Int32, String)] = [
            (["challenge", "create", "--group", "--at-most", "1"], 1, "not in a group"),
            (["challenge", "join", "abcdef"], 1, "not in a group"),
            (["ranking"], 1, "not in a group"),
            (["week"], 1, "not in a group"),
            (["group", "set", "--week-start", "someday"], 64, "weekday"),
            (["group", "set", "--missing-days", "never"], 64, "pending or worst-case"),
            (["group", "set", "--kept-day-coins", "5000"], 64, "0 to 1000"),
        ]
        for (arguments, status, message) in cases {
            let result = try await Binary.run(arguments + ["--home", home.path])
            #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result)")
        }
    }
}
