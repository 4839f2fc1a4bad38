import Foundation
import Glibc
import Testing

/// A challenge open to all on the real binary: the owner of a shared group-store file publishes
/// it, Bo and Cy — each in a group of their own — join it, Bo's monitor breaks the rule in his
/// home, and Cy's `challenge show` and `status --json` show the board across their groups: Bo
/// failed, Cy still in, names and outcomes only.
@Suite struct OpenChallengeEndToEndTests {
    private func run(_ arguments: [String], _ home: Binary.Home, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        let result = try await Binary.run(arguments + ["--home", home.path])
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    private func json(_ arguments: [String], _ home: Binary.Home) async throws -> [String: Any] {
        let text = try await run(arguments + ["--json"], home)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// The name → state of a challenge's participants in `challenge show --json` or `status --json`.
    private func states(_ challenge: [String: Any]?) -> [String: String] {
        let participants = challenge?["participants"] as? [[String: Any]] ?? []
        return Dictionary(
            uniqueKeysWithValues: participants.map { ($0["name"] as? String ?? "", $0["state"] as? String ?? "") })
    }

    /// Three homes on one shared file: the file's owner (who made it: this user) publishes a
    /// challenge for tomorrow, and Bo and Cy, each in a group of their own, join it.
    private func published(_ shared: String) async throws -> (
        owner: Binary.Home, bo: Binary.Home, cy: Binary.Home, id: String
    ) {
        let (owner, bo, cy) = (Binary.Home(), Binary.Home(), Binary.Home())
        let store = ["--group-store", shared]
        for (home, name) in [(owner, "olga"), (bo, "bo"), (cy, "cy")] {
            _ = try await run(["setup", "--name", name, "--start-at", "2026-11-21T08:00"], home)
        }
        _ = try await run(["group", "create", "--start-at", "2026-11-21T08:01"] + store, bo)
        _ = try await run(["group", "create", "--start-at", "2026-11-21T08:01"] + store, cy)
        let published = try await run(
            ["challenge", "publish", "--at-most", "1", "--days", "2", "--start-at", "2026-11-21T08:10"] + store, owner)
        let id = try #require(published.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        #expect(id.count == 8, "\(published)")
        #expect(published.contains("Open to everyone on the group store"), "\(published)")

        let listed = try await run(["challenge", "list", "--open-to-all", "--start-at", "2026-11-21T08:20"], bo)
        #expect(listed.contains("[open to all]") && listed.contains("join it with `screenmates challenge join \(id)`"))
        for home in [bo, cy] {
            let joined = try await run(["challenge", "join", id, "--start-at", "2026-11-21T08:21"], home)
            #expect(joined.contains("Joined challenge \(id)"), "\(joined)")
        }
        return (owner, bo, cy, id)
    }

    private static func remove(_ shared: String) {
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: shared + suffix) }
    }

    @Test func theOwnerPublishesAndTwoGroupsShareTheBoard() async throws {
        let shared = Binary.Home().path + "-group-store.sqlite"
        defer { Self.remove(shared) }
        let store = ["--group-store", shared]
        let (_, bo, cy, id) = try await published(shared)

        // Bo's monitor records his day (many blocks); his home decides; sync tells the store.
        _ = try await run(
            ["monitor", "--start-at", "2026-11-22T09:00", "--rate", "max", "--count", "30", "--seed", "3"], bo)
        _ = try await run(["sync", "--start-at", "2026-11-22T20:00"], bo)

        let show = try await json(["challenge", "show", id, "--start-at", "2026-11-22T21:00"], cy)
        #expect(states(show) == ["bo": "failed", "cy": "still in"], "\(show)")
        #expect(show["openToAll"] as? Bool == true && show["joined"] as? Bool == true, "\(show)")
        let text = try await run(["challenge", "show", id, "--start-at", "2026-11-22T21:01"], cy)
        #expect(text.contains("[open to all]") && text.contains("1 still in, 1 failed"), "\(text)")
        #expect(text.contains("cy (you)"), "\(text)")
        let list = try await run(["challenge", "list", "--start-at", "2026-11-22T21:01"], cy)
        #expect(list.contains("\(id)  [open to all]") && list.contains("1 still in, 1 failed"), "\(list)")

        let status = try await json(["status", "--start-at", "2026-11-22T21:02"], cy)
        let open = status["openChallenges"] as? [[String: Any]] ?? []
        #expect(open.map { $0["id"] as? String } == [id], "\(status)")
        #expect(states(open.first) == ["bo": "failed", "cy": "still in"], "\(status)")
        // Names and outcomes only: no user id on the board.
        let board = (open.first?["participants"] as? [[String: Any]] ?? []).flatMap(\.keys)
        #expect(Set(board) == ["name", "state", "rank", "daysKept", "isMe", "decidedAt"], "\(board)")

        // Bo's penalty was booked once, as for a group's challenge.
        let coins = try await json(["coins", "--start-at", "2030-01-01T00:00"], bo)
        let penalties = (coins["transactions"] as? [[String: Any]] ?? []).filter {
            ($0["cause"] as? String) == "challenge \(id)"
        }
        #expect(penalties.map { $0["asked"] as? Int } == [-25], "\(coins)")

        // Only the file's owner publishes: once the file is someone else's, this user is refused.
        guard getuid() == 0 else { return }
        #expect(chown(shared, 65534, 65534) == 0)
        let refused = try await Binary.run(
            ["challenge", "publish", "--streak", "--start-at", "2026-11-22T21:03", "--home", cy.path] + store)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Only the owner of the group store"), "\(refused.stderr)")
    }

    /// On screen, live across groups: Cy watches the challenges screen (`c`) of her dashboard
    /// while Bo, in another group, breaks the rule; once his `sync` has told the store, her
    /// screen says he failed, without a key (the open challenges' change mark, polled, brings it).
    @Test func aParticipantOfAnotherGroupFailingShowsOnTheChallengesScreenLive() async throws {
        let shared = Binary.Home().path + "-group-store.sqlite"
        defer { Self.remove(shared) }
        let (_, bo, cy, _) = try await published(shared)

        let screen = try await Tmux()
        try await screen.type("\(Binary.path) --home \(cy.path) dashboard --speed 1 --start-at 2026-11-22T09:00")
        try await screen.waitFor("coins")
        try await screen.keys("c")
        let before = try await screen.waitFor { $0.contains(" bo ") && $0.contains("still in") }
        #expect(!before.contains("failed"), "\(before)")
        #expect(before.contains("all "), "\(before)")

        _ = try await run(
            ["monitor", "--start-at", "2026-11-22T09:00", "--rate", "max", "--count", "30", "--seed", "3"], bo)
        _ = try await run(["sync", "--start-at", "2026-11-22T20:00"], bo)
        let after = try await screen.waitFor(timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.contains(" bo ") && $0.contains("failed") }
        }
        let cyRow = after.split(separator: "\n").first { $0.contains("cy (you)") }
        #expect(cyRow?.contains("still in") == true, "\(after)")
        try await screen.keys("Escape", "q")
    }
}
