import Foundation
import Testing

/// A member's account on a PostgreSQL group store, tried as people would: bo gets his group (and
/// the challenge open to all he joined) back on a new machine with a copy of his identity file; someone with bo's user id but not his
/// secret cannot; and bo's account deleted leaves nothing of his in the group, nor on the board of
/// the challenge open to all he joined.
@Suite(
    .enabled(
        if: PostgresServer.url != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"))
struct PostgresAccountEndToEndTests {
    @Test func aMemberRestoresOnANewMachineAndNobodyElseCan() async throws {
        let server = try await PostgresGroupEndToEndTests.Server()
        try await server.member("ana")
        let created = try await server.run("ana", ["group", "create"])
        let code = try #require(
            created.stdout.split(separator: " ").last.map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            })
        try await server.member("bo")
        #expect(try await server.run("bo", ["group", "join", code]).status == 0)
        // ana's login owns the store: she publishes a challenge open to all, which bo joins.
        let published = try await server.run("ana", ["challenge", "publish", "--streak", "--days", "3"])
        let open = try #require(published.stdout.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        #expect(try await server.run("bo", ["challenge", "join", open]).status == 0)
        let identity = server.home("bo") + "/member-identity"
        let copy = server.root + "/bo-identity-copy"
        try FileManager.default.copyItem(atPath: identity, toPath: copy)

        // A new machine: an empty home and the copy.
        let restored = try await server.run("bo-laptop", ["restore", "--identity", copy])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("Restored bo") && restored.stdout.contains(code), "\(restored.stdout)")
        let shown = try await server.run("bo-laptop", ["group", "show"])
        #expect(shown.stdout.contains("bo (you)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("ana"), "\(shown.stdout)")
        // … and his challenge open to all, decided from his blocks here.
        #expect(restored.stdout.contains("1 challenge open to all"), "\(restored.stdout)")
        let listed = try await server.run("bo-laptop", ["challenge", "list"])
        #expect(listed.stdout.contains("\(open)  [open to all]"), "\(listed.stdout)")

        // bo's user id with another secret: refused, saying why, and bo is untouched.
        let text = try String(contentsOfFile: identity, encoding: .utf8)
        let forged = text.split(separator: "\n").map { line in
            line.hasPrefix("secret=") ? "secret=" + String(repeating: "c", count: 64) : String(line)
        }.joined(separator: "\n")
        let forgedPath = server.root + "/forged"
        try Data(forged.utf8).write(to: URL(fileURLWithPath: forgedPath))
        let stolen = try await server.run("mallory", ["restore", "--identity", forgedPath])
        #expect(stolen.status == 1)
        #expect(stolen.stderr.contains("belongs to another member"), "\(stolen.stderr)")
        #expect(try await server.run("bo", ["sync"]).status == 0, "bo's own home still syncs")

        // bo deletes his account from the new machine: the group no longer holds him.
        let deleted = try await server.run("bo-laptop", ["account", "delete", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let after = try await server.run("ana", ["group", "show", "--json"])
        let group = try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any]
        let names = (group?["members"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["ana"], "\(after.stdout)")
        let board = try await server.run("ana", ["challenge", "show", open, "--json"])
        #expect(board.status == 0 && !board.stdout.contains("\"bo\""), "\(board.stdout)")
        #expect(!FileManager.default.fileExists(atPath: server.home("bo-laptop") + "/member-identity"))
    }
}
