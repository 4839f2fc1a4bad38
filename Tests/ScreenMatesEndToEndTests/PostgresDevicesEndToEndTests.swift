import Foundation
import Testing

/// One person, two machines, on a PostgreSQL group store, tried as people would: bo's second home
/// (a copy of his identity) says it is his second machine, `devices` lists both, renames and
/// removes one; ana still sees bo once; a removed machine is told so when it syncs.
@Suite(
    .enabled(
        if: PostgresServer.url != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"))
struct PostgresDevicesEndToEndTests {
    @Test func aMembersSecondMachineIsListedRenamedAndRemovedAndTheGroupSeesOnePerson() async throws {
        let server = try await PostgresGroupEndToEndTests.Server()
        try await server.member("ana")
        let created = try await server.run("ana", ["group", "create"])
        let code = try #require(
            created.stdout.split(separator: " ").last.map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            })
        try await server.member("bo")
        #expect(try await server.run("bo", ["group", "join", code]).status == 0)
        let alone = try await server.run("bo", ["devices"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("(this one)") && alone.stdout.contains("At most 4 machines"), "\(alone.stdout)")

        let copy = server.root + "/bo-identity-copy"
        try FileManager.default.copyItem(atPath: server.home("bo") + "/member-identity", toPath: copy)
        let restored = try await server.run("bo-laptop", ["restore", "--identity", copy])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("This is bo's second machine ("), "\(restored.stdout)")

        let listed = try await server.run("bo-laptop", ["devices"])
        let rows = listed.stdout.split(separator: "\n").dropFirst().filter { !$0.hasPrefix("At most") }
        #expect(rows.count == 2, "\(listed.stdout)")
        let laptopName = try #require(rows.first { $0.contains("(this one)") }?.split(separator: " ").first)
        #expect(try await server.run("bo-laptop", ["devices", "rename", String(laptopName), "laptop"]).status == 0)
        #expect(try await server.run("bo", ["devices"]).stdout.contains("laptop "), "bo's first home sees the name")
        // A name that is no machine's name, or not a name at all: said, nothing changes.
        let wrong = try await server.run("bo", ["devices", "remove", "desk"])
        #expect(wrong.status == 1 && wrong.stderr.contains("no machine called desk"), "\(wrong.stderr)")
        let bad = try await server.run("bo", ["devices", "rename", "laptop", "my laptop"])
        #expect(bad.status == 64 && bad.stderr.contains("remove space"), "\(bad.stderr)")

        // ana sees one bo, whichever machine wrote last.
        #expect(try await server.run("bo", ["sync"]).status == 0)
        #expect(try await server.run("bo-laptop", ["sync"]).status == 0)
        let show = try await server.run("ana", ["group", "show", "--json"])
        let group = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
        let names = (group?["members"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["ana", "bo"], "\(show.stdout)")

        // The laptop removed from the first home: its sync is refused, saying why and what to do.
        let removed = try await server.run("bo", ["devices", "remove", "laptop"])
        #expect(removed.status == 0 && removed.stdout.contains("stays counted"), "\(removed.stdout)")
        let refused = try await server.run("bo-laptop", ["sync"])
        #expect(refused.status != 0 && refused.stderr.contains("screenmates devices add"), "\(refused.stderr)")
        let again = try await server.run("bo-laptop", ["devices", "add"])
        #expect(again.status == 0 && again.stdout.contains("Added this machine"), "\(again.stdout)")
        #expect(try await server.run("bo-laptop", ["sync"]).status == 0)
    }
}
