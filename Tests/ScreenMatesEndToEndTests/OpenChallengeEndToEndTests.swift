import Foundation
import GRDB
import Glibc
import Testing

/// A challenge open to all on the real binary: the owner of a shared group-store file publishes
/// it, Bo and Cy — each in a group of their own — join it, Bo's monitor breaks the rule in his
/// home, and Cy's `challenge show` and `status --json` show the board across their groups: Bo
/// failed, Cy still in, names and outcomes only.
@Suite struct OpenChallengeEndToEndTests {
    /// Three homes on one shared file: the file's owner (who made it: this user) publishes a
    /// challenge for tomorrow, and Bo and Cy, each in a group of their own, join it.
    private func published(_ shared: String) async throws -> (
        owner: Binary.Home, bo: Binary.Home, cy: Binary.Home, id: String
    ) {
        let (owner, bo, cy) = (Binary.Home(), Binary.Home(), Binary.Home())
        let store = ["--group-store", shared]
        for (home, name) in [(owner, "olga"), (bo, "bo"), (cy, "cy")] {
            _ = try await home.succeed(["setup", "--name", name, "--start-at", "2026-11-21T08:00"])
        }
        _ = try await bo.succeed(["group", "create", "--start-at", "2026-11-21T08:01"] + store)
        _ = try await cy.succeed(["group", "create", "--start-at", "2026-11-21T08:01"] + store)
        let published = try await owner.succeed(
            ["challenge", "publish", "--at-most", "1", "--days", "2", "--start-at", "2026-11-21T08:10"] + store)
        let id = try #require(published.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        #expect(id.count == 8, "\(published)")
        #expect(published.contains("Open to everyone on the group store"), "\(published)")

        let listed = try await bo.succeed(["challenge", "list", "--open-to-all", "--start-at", "2026-11-21T08:20"])
        #expect(listed.contains("[open to all]") && listed.contains("join it with `screenmates challenge join \(id)`"))
        for home in [bo, cy] {
            let joined = try await home.succeed(["challenge", "join", id, "--start-at", "2026-11-21T08:21"])
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
        _ = try await bo.succeed([
            "monitor", "--start-at", "2026-11-22T09:00", "--rate", "max", "--count", "30", "--seed", "3",
        ])
        _ = try await bo.succeed(["sync", "--start-at", "2026-11-22T20:00"])

        let show = try await cy.json(["challenge", "show", id, "--start-at", "2026-11-22T21:00"])
        #expect(participantStates(show) == ["bo": "failed", "cy": "still in"], "\(show)")
        #expect(show["openToAll"] as? Bool == true && show["joined"] as? Bool == true, "\(show)")
        let text = try await cy.succeed(["challenge", "show", id, "--start-at", "2026-11-22T21:01"])
        #expect(text.contains("[open to all]") && text.contains("1 still in, 1 failed"), "\(text)")
        #expect(text.contains("cy (you)"), "\(text)")
        let list = try await cy.succeed(["challenge", "list", "--start-at", "2026-11-22T21:01"])
        #expect(list.contains("\(id)  [open to all]") && list.contains("1 still in, 1 failed"), "\(list)")

        let status = try await cy.json(["status", "--start-at", "2026-11-22T21:02"])
        let open = status["openChallenges"] as? [[String: Any]] ?? []
        #expect(open.map { $0["id"] as? String } == [id], "\(status)")
        #expect(participantStates(open.first) == ["bo": "failed", "cy": "still in"], "\(status)")
        // Names and outcomes only: no user id on the board.
        let board = (open.first?["participants"] as? [[String: Any]] ?? []).flatMap(\.keys)
        #expect(Set(board) == ["name", "state", "rank", "daysKept", "isMe", "decidedAt"], "\(board)")

        // Bo's penalty was booked once, as for a group's challenge.
        let coins = try await bo.json(["coins", "--start-at", "2030-01-01T00:00"])
        let penalties = (coins["transactions"] as? [[String: Any]] ?? []).filter {
            ($0["cause"] as? String) == "challenge \(id)"
        }
        #expect(penalties.map { $0["asked"] as? Int } == [-25], "\(coins)")

        // A line no client would write (a name with an escape), put in the file by another program:
        // left out of the board, and named.
        try await DatabaseQueue(path: shared).write { db in
            try db.execute(
                sql: """
                    INSERT INTO open_participant (challenge_id, user_id, display_name, name_key, state, days_kept,
                        joined_at) VALUES (?, 'eve23456', ?, 'eve', 'in', 0, 0)
                    """, arguments: [id, "eve\u{1B}[2J"])
        }
        let named = try await Binary.run(
            ["challenge", "show", id, "--start-at", "2026-11-22T21:04", "--home", cy.path] + store)
        #expect(named.status == 0 && !named.stdout.contains("eve"), "\(named.stdout)")
        #expect(named.stderr.contains("left out, as they cannot be right"), "\(named.stderr)")
        #expect(named.stderr.contains("participant \(id) eve") && !named.stderr.contains("\u{1B}"), "\(named.stderr)")

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

        _ = try await bo.succeed([
            "monitor", "--start-at", "2026-11-22T09:00", "--rate", "max", "--count", "30", "--seed", "3",
        ])
        _ = try await bo.succeed(["sync", "--start-at", "2026-11-22T20:00"])
        let after = try await screen.waitFor(timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.contains(" bo ") && $0.contains("failed") }
        }
        let cyRow = after.split(separator: "\n").first { $0.contains("cy (you)") }
        #expect(cyRow?.contains("still in") == true, "\(after)")
        try await screen.keys("Escape", "q")
    }
}
