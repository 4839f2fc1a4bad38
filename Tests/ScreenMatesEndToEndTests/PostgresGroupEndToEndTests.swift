import Foundation
import Testing

/// Two people on "different machines": two dashboards with their own home directories whose
/// group lives on one PostgreSQL server (`SCREENMATES_TEST_POSTGRES`, as `.ci/run` sets it).
@Suite(
    .enabled(
        if: PostgresServer.url != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"))
struct PostgresGroupEndToEndTests {
    /// A database of its own on the test server, and homes for its members.
    final class Server {
        let root = NSTemporaryDirectory() + "screenmates-pg-group-" + UUID().uuidString
        let url: String

        init() throws {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            url = try PostgresServer.newDatabase()
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func home(_ name: String) -> String { root + "/" + name }

        func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try Binary.run(arguments + ["--home", home(name)], environment: ["SCREENMATES_GROUP_STORE": url])
        }

        func member(_ name: String) throws {
            let setup = try run(name, ["setup", "--name", name, "--vice", "tiktok", "--productive", "kindle"])
            #expect(setup.status == 0, "\(setup.stderr)")
        }

        func blocksUsed(_ name: String) throws -> Int {
            let status = try run(name, ["status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            return try #require(object?["blocksUsed"] as? Int)
        }
    }

    @Test func aChangeByOneMemberShowsOnTheOthersDashboardWithinTwoSeconds() throws {
        let server = try Server()
        try server.member("ana")
        let created = try server.run("ana", ["group", "create"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(
            created.stdout.split(separator: " ").last.map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            })
        try server.member("bo")
        let joined = try server.run("bo", ["group", "join", code])
        #expect(joined.status == 0, "\(joined.stderr)")
        // The URL goes by the environment here, as `SCREENMATES_GROUP_STORE` on each machine.
        let anaScreen = try Tmux(environment: ["SCREENMATES_GROUP_STORE": server.url])
        try anaScreen.type("\(Binary.path) --home \(server.home("ana")) dashboard")
        let boScreen = try Tmux(environment: ["SCREENMATES_GROUP_STORE": server.url])
        try boScreen.type("\(Binary.path) --home \(server.home("bo")) dashboard")
        try boScreen.waitFor("ana")
        try anaScreen.waitFor("bo")
        var shown = 0
        var seed = 0
        var delays: [TimeInterval] = []
        while shown < 3 {
            seed += 1
            let monitor = try Binary.run([
                "monitor", "--home", server.home("ana"), "--rate", "max", "--count", "1", "--seed", "\(seed)",
            ])
            #expect(monitor.status == 0, "\(monitor.stderr)")
            let written = Date()
            let blocks = try server.blocksUsed("ana")
            guard blocks > shown else { continue }
            shown = blocks
            let screen = try boScreen.waitFor(timeout: 10) { screen in
                screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(blocks)/8") }
            }
            let delay = Date().timeIntervalSince(written)
            delays.append(delay)
            #expect(delay < 2, "ana's block \(blocks) took \(delay) s to show on bo's screen:\n\(screen)")
        }
        print("PostgreSQL group: a monitor event on ana's machine reached bo's screen in \(delays) s")
        try anaScreen.keys("q")
        try boScreen.keys("q")
    }

    @Test func anUnreachableServerIsReportedLikeAnUnreachableFile() throws {
        let server = try Server()
        try server.member("ana")
        let result = try Binary.run(
            ["group", "join", "K7Q2XM", "--home", server.home("ana")],
            environment: ["SCREENMATES_GROUP_STORE": "postgres://nobody@/groups?host=\(server.root)/no-server"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot be reached"), "\(result.stderr)")
    }
}

/// The test server, reached with `psql` (the tests of this target do not link postgres-nio).
enum PostgresServer {
    static let url = ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Creates an empty database and returns the URL that reaches it.
    static func newDatabase() throws -> String {
        let url = try #require(url)
        let name = "screenmates_e2e_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let created = try Command.run("/usr/bin/env", ["psql", "-q", url, "-c", "CREATE DATABASE \(name)"])
        #expect(created.status == 0, "psql: \(created.stderr)")
        return replacingDatabase(in: url, with: name)
    }

    /// `url` naming the database `name` instead of its own.
    static func replacingDatabase(in url: String, with name: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let afterScheme = url[scheme.upperBound...]
        let query = afterScheme.firstIndex(of: "?") ?? url.endIndex
        let slash = afterScheme[..<query].firstIndex(of: "/") ?? query
        return String(url[..<slash]) + "/" + name + String(url[query...])
    }
}
