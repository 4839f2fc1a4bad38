import Foundation
import Testing

/// Challenges on the real binary, on a simulated day: the monitor alone breaks one the moment
/// its rule is broken, another is kept when its day ends, the coins and the notices follow, and
/// running everything again changes nothing.
@Suite struct ChallengeEndToEndTests {
    private func run(_ arguments: [String], _ home: Binary.Home, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        let result = try await Binary.run(arguments + ["--home", home.path])
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    private func json(_ arguments: [String], _ home: Binary.Home) async throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try await run(arguments + ["--json"], home).utf8))
    }

    /// The id in "Challenge ab12: …".
    private func id(_ created: String) throws -> String {
        let words = created.split(separator: " ")
        try #require(words.count > 1 && words[0] == "Challenge", "\(created)")
        return String(words[1].dropLast())
    }

    @Test func theMonitorBreaksOneTheEndOfItsDayKeepsAnotherAndCoinsAndNoticesFollowOnce() async throws {
        let home = Binary.Home()
        _ = try await run(["setup", "--name", "ana", "--start-at", "2026-11-21T08:00"], home)
        let strict = try id(
            try await run(
                ["challenge", "create", "--at-most", "0", "--days", "1", "--now", "--start-at", "2026-11-21T08:05"],
                home))
        let easy = try id(
            try await run(
                [
                    "challenge", "create", "--at-most", "96", "--app", "Kindle", "--days", "1", "--reward", "40",
                    "--start-at", "2026-11-21T08:05",
                ], home))
        // The monitor writes the day's blocks; with no dashboard open it decides the first.
        _ = try await run(
            ["monitor", "--start-at", "2026-11-21T08:10", "--rate", "max", "--count", "40", "--seed", "3"], home)
        // Each command after the one before on the app clock: what one writes (a decision, a
        // notice) is part of the home's past, which no clock may go back into.
        var minute = 0
        func later() -> [String] {
            minute += 1
            return ["--start-at", String(format: "2026-11-25T00:%02d", minute)]
        }
        let list = try #require(try await json(["challenge", "list"] + later(), home) as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as? String ?? "", $0) })
        #expect(byID[strict]?["outcome"] as? String == "broken", "\(list)")
        #expect((byID[strict]?["decidedAt"] as? String)?.hasPrefix("2026-11-21T") == true, "\(list)")
        #expect(byID[easy]?["outcome"] as? String == "kept", "\(list)")
        // Kept when its day ended: midnight in the time zone the tests run in.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let midnight = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 23)))
        #expect(
            byID[easy]?["decidedAt"] as? String == ISO8601DateFormatter().string(from: midnight),
            "kept when its day ended: \(list)")

        // The penalty took what there was (nothing); the reward and a first badge were booked.
        let coins = try #require(try await json(["coins"] + later(), home) as? [String: Any])
        #expect(coins["balance"] as? Int == 50, "\(coins)")
        let entries = try #require(coins["transactions"] as? [[String: Any]])
        #expect(entries.map { $0["amount"] as? Int } == [0, 40, 10], "\(entries)")
        #expect(entries.first?["asked"] as? Int == -25)
        let badges = try #require(try await json(["badges"] + later(), home) as? [[String: Any]])
        #expect(badges.filter { $0["earned"] is String }.map { $0["kind"] as? String } == ["first-challenge"])

        // Each outcome is a notice, once; running it all again changes nothing.
        func notices(at clock: [String]) async throws -> [String] {
            let status = try #require(try await json(["status"] + clock, home) as? [String: Any])
            return (status["notifications"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }.sorted()
        }
        let expected = ["badge-first-challenge", "challenge-\(easy)-kept", "challenge-\(strict)-broken"].sorted()
        #expect(try await notices(at: later()) == expected)
        _ = try await run(["challenge", "list"] + later(), home)
        _ = try await run(["monitor", "--rate", "max", "--count", "3", "--seed", "4"] + later(), home)
        // After the monitor's blocks (an hour at most).
        let next = ["--start-at", "2026-11-26T00:00"]
        #expect(try await notices(at: next) == expected)
        let again = try #require(try await json(["coins"] + next, home) as? [String: Any])
        #expect((again["transactions"] as? [Any])?.count == 3 && again["balance"] as? Int == 50, "\(again)")

        // A challenge that has ended cannot be given up.
        let forfeit = try await run(["challenge", "forfeit", strict, "--yes", "--start-at", "2026-11-26T00:01"], home)
        #expect(forfeit.contains("has ended (broken); nothing changed"), "\(forfeit)")
    }

    @Test func givingUpAsksFirstAndCostsThePenaltyOnce() async throws {
        let home = Binary.Home()
        _ = try await run(["setup", "--name", "ana", "--start-at", "2026-11-21T08:00"], home)
        // Each command a minute after the one before, on the app clock.
        func atMinute(_ minute: Int) -> [String] { ["--start-at", String(format: "2026-11-21T09:%02d", minute)] }
        let streak = try id(
            try await run(["challenge", "create", "--streak", "--days", "3", "--reward", "5"] + atMinute(0), home))
        let asked = try await Binary.run(["challenge", "forfeit", streak, "--home", home.path] + atMinute(1))
        #expect(asked.status == 64 && asked.stderr.contains("--yes"), "\(asked)")
        let given = try await run(["challenge", "forfeit", streak, "--yes"] + atMinute(2), home)
        #expect(given.contains("Challenge given up"), "\(given)")
        let twice = try await run(["challenge", "forfeit", streak, "--yes"] + atMinute(3), home)
        #expect(twice.contains("nothing changed"), "\(twice)")
        let coins = try #require(try await json(["coins"] + atMinute(4), home) as? [String: Any])
        #expect((coins["transactions"] as? [Any])?.count == 1 && coins["balance"] as? Int == 0, "\(coins)")
    }

    @Test func badChallengesAreRefusedWithAReason() async throws {
        let home = Binary.Home()
        _ = try await run(["setup", "--name", "ana"], home)
        let cases: [([String], Int32, String)] = [
            (["challenge", "create"], 64, "exactly one rule"),
            (["challenge", "create", "--at-most", "2", "--streak"], 64, "exactly one rule"),
            (["challenge", "create", "--quiet", "22-07"], 64, "HH:MM-HH:MM"),
            (["challenge", "create", "--quiet", "22:00-22:00"], 64, "end other than"),
            (["challenge", "create", "--at-most", "-1"], 64, "0 to 96"),
            (["challenge", "create", "--at-most", "2", "--days", "0"], 64, "1 to 365"),
            (["challenge", "create", "--at-most", "2", "--reward", "99999"], 64, "0 to 10000"),
            (["challenge", "create", "--at-most", "2", "--app", "Netflix"], 64, "not one of your apps"),
            (["challenge", "create", "--streak", "--app", "TikTok"], 64, "takes no --app"),
            (["challenge", "show", "zzzz"], 1, "no challenge zzzz"),
        ]
        for (arguments, status, message) in cases {
            let result = try await Binary.run(arguments + ["--home", home.path])
            #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result)")
        }
        let list = try await run(["challenge", "list"], home)
        #expect(list.contains("No challenges yet"), "nothing was created: \(list)")
    }
}
