import Foundation
import ScreenMatesTestSupport
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

        /// `prepared`: with the schema set up and the members choosing their clock.
        init(prepared: Bool = true) async throws {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            url = try await PostgresServer.newDatabase(prepared: prepared)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func home(_ name: String) -> String { root + "/" + name }

        /// The simulated day: homes set up on it, dashboards running its clock from 10:00 (and
        /// publishing it, so the monitors and `status` of the same home follow it).
        static let setupClock = ["--start-at", "2026-11-21T09:00"]
        static let dashboard = "dashboard --speed 1 --start-at 2026-11-21T10:00"

        func run(_ name: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String)
        {
            try await Binary.run(arguments + ["--home", home(name)], environment: ["SCREENMATES_GROUP_STORE": url])
        }

        /// Sets a member up on the simulated day the dashboards of these tests run on (so that
        /// midnight on the real clock cannot reset the figures they wait for).
        func member(_ name: String) async throws {
            let setup = try await run(
                name, ["setup", "--name", name, "--vice", "tiktok", "--productive", "kindle"] + Self.setupClock)
            #expect(setup.status == 0, "\(setup.stderr)")
        }

        func blocksUsed(_ name: String) async throws -> Int {
            let status = try await run(name, ["status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            return try #require(object?["blocksUsed"] as? Int)
        }
    }

    /// Each of ana's new blocks reaches bo's open dashboard by itself, through the server. The
    /// deadline is generous for a loaded machine; the time taken is printed for information
    /// (the benchmark measures it).
    @Test func aChangeByOneMemberShowsOnTheOthersDashboard() async throws {
        let server = try await Server()
        try await server.member("ana")
        let created = try await server.run("ana", ["group", "create"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(
            created.stdout.split(separator: " ").last.map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            })
        try await server.member("bo")
        let joined = try await server.run("bo", ["group", "join", code])
        #expect(joined.status == 0, "\(joined.stderr)")
        // The URL goes by the environment here, as `SCREENMATES_GROUP_STORE` on each machine.
        let anaScreen = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": server.url])
        try await anaScreen.type("\(Binary.path) --home \(server.home("ana")) \(Server.dashboard)")
        let boScreen = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": server.url])
        try await boScreen.type("\(Binary.path) --home \(server.home("bo")) \(Server.dashboard)")
        try await boScreen.waitFor("ana")
        try await anaScreen.waitFor("bo")
        var shown = 0
        var seed = 0
        var delays: [Duration] = []
        while shown < 3 && seed < 60 {
            seed += 1
            let monitor = try await Binary.run([
                "monitor", "--home", server.home("ana"), "--rate", "max", "--count", "1", "--seed", "\(seed)",
            ])
            #expect(monitor.status == 0, "\(monitor.stderr)")
            let written = ContinuousClock.now
            let blocks = try await server.blocksUsed("ana")
            guard blocks > shown else { continue }
            shown = blocks
            let screen = try await boScreen.waitFor(timeout: 30) { screen in
                screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(blocks)/8") }
            }
            delays.append(ContinuousClock.now - written)
            let row = screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(blocks)/8") }
            #expect(row, "ana's block \(blocks) never showed on bo's screen:\n\(screen)")
        }
        #expect(shown == 3, "the monitor gave ana \(shown) vice blocks in \(seed) events")
        print("PostgreSQL group: a monitor event on ana's machine reached bo's screen in \(delays)")
        try await anaScreen.keys("q")
        try await boScreen.keys("q")
    }

    /// Behind a connection pooler in transaction mode (a real PgBouncer, which `.ci/run`
    /// starts), LISTEN never delivers: bo's dashboard finds that out by itself and asks for the
    /// group's change number every 2 s, so ana's block still reaches bo's screen, and bo's debug
    /// panel and `status --json` say how the group is followed.
    @Test(
        .enabled(
            if: PostgresServer.bouncerURL != nil,
            "needs PgBouncer: .ci/pgbouncer start DIR \"$SCREENMATES_TEST_POSTGRES\" (as .ci/run does)"))
    func throughAConnectionPoolerABlockStillReachesTheOthersScreen() async throws {
        let server = try await Server()
        let pooled = try #require(PostgresServer.throughBouncer(server.url))
        try await server.member("ana")
        let created = try await server.run("ana", ["group", "create"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(
            created.stdout.split(separator: " ").last.map {
                String($0).trimmingCharacters(in: .whitespacesAndNewlines)
            })
        try await server.member("bo")
        let joined = try await Binary.run(
            ["group", "join", code, "--home", server.home("bo")], environment: ["SCREENMATES_GROUP_STORE": pooled])
        #expect(joined.status == 0, "\(joined.stderr)")
        // ana directly (her dashboard reports and runs the simulated day's clock), bo through
        // the pooler.
        let anaScreen = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": server.url])
        try await anaScreen.type("\(Binary.path) --home \(server.home("ana")) \(Server.dashboard)")
        let boScreen = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": pooled])
        try await boScreen.type("\(Binary.path) --home \(server.home("bo")) \(Server.dashboard)")
        try await boScreen.waitFor("ana")
        try await anaScreen.waitFor("bo")
        var blocks = 0
        var seed = 0
        while blocks == 0 && seed < 60 {
            seed += 1
            let monitor = try await Binary.run([
                "monitor", "--home", server.home("ana"), "--rate", "max", "--count", "1", "--seed", "\(seed)",
            ])
            #expect(monitor.status == 0, "\(monitor.stderr)")
            blocks = try await server.blocksUsed("ana")
        }
        let screen = try await boScreen.waitFor(timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(blocks)/8") }
        }
        #expect(
            screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(blocks)/8") },
            "ana's block never showed on bo's screen through the pooler:\n\(screen)")
        try await boScreen.keys("D")
        let panel = try await boScreen.waitFor(timeout: 30) { $0.contains("polling every 2 s") }
        #expect(panel.contains("group changes"), "\(panel)")
        try await boScreen.keys("q")
        try await anaScreen.keys("q")
        let status = try await Binary.run(
            ["status", "--json", "--home", server.home("bo")], environment: ["SCREENMATES_GROUP_STORE": pooled])
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let following = (object?["sync"] as? [String: Any])?["following"] as? String
        #expect(following == "polling every 2 s", "\(status.stdout)")
        let direct = try await server.run("ana", ["status", "--json"])
        let anaObject = try JSONSerialization.jsonObject(with: Data(direct.stdout.utf8)) as? [String: Any]
        #expect((anaObject?["sync"] as? [String: Any])?["following"] as? String == "live")
    }

    /// The server restarts under a running dashboard: it shows "offline", keeps counting its own
    /// blocks, and once the server is back it says "synced" again and the group has its numbers.
    @Test func aServerRestartShowsOfflineAndCatchesUpAfterwards() async throws {
        try await PostgresServer.withOwnServer("start") { directory, started in
            try #require(started.status == 0, "\(started.stderr)")
            let url = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "&connect_timeout=2"
            try await PostgresServer.letMembersChooseTheirClock(url)
            let root = NSTemporaryDirectory() + "screenmates-e2e-restart-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: root) }
            func run(_ name: String, _ arguments: [String]) async throws -> (
                status: Int32, stdout: String, stderr: String
            ) {
                try await Binary.run(
                    arguments + ["--home", root + "/" + name], environment: ["SCREENMATES_GROUP_STORE": url])
            }
            #expect(try await run("ana", ["setup", "--name", "ana"] + Server.setupClock).status == 0)
            let created = try await run("ana", ["group", "create"])
            let code = try #require(
                created.stdout.split(separator: " ").last.map {
                    String($0).trimmingCharacters(in: .whitespacesAndNewlines)
                })
            #expect(
                try await run(
                    "bo", ["setup", "--name", "bo", "--vice", "tiktok", "--productive", "kindle"] + Server.setupClock
                )
                .status == 0)
            #expect(try await run("bo", ["group", "join", code]).status == 0)
            let screen = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": url])
            try await screen.type("\(Binary.path) --home \(root)/bo \(Server.dashboard)")
            try await screen.waitFor("synced")

            let halted = try await Command.run(PostgresServer.script, ["halt", directory])
            try #require(halted.status == 0, "\(halted.stderr)")
            _ = try await Binary.run([
                "monitor", "--home", root + "/bo", "--rate", "max", "--count", "4", "--seed", "9",
            ])
            let status = try await run("bo", ["status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            let blocks = try #require(object?["blocksUsed"] as? Int)
            #expect(blocks > 0, "seed 9 gives bo at least one vice block")
            _ = try await screen.waitFor("offline", timeout: 30)
            let working = try await screen.waitFor("\(blocks) / 8 blocks", timeout: 30)
            #expect(working.contains("offline"), "the dashboard keeps working from its own numbers:\n\(working)")

            let restarted = try await Command.run(PostgresServer.script, ["start", directory])
            try #require(restarted.status == 0, "\(restarted.stderr)")
            let back = try await screen.waitFor(timeout: 60) { $0.contains("synced") && !$0.contains("offline") }
            #expect(!back.contains("offline"))
            // Read from the server on bo's clock (bo's dashboard still runs and publishes it): on the
            // real day, bo's numbers of the simulated one would show as idle.
            let shown = try await run("bo", ["group", "show", "--json"])
            let group = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
            let bo = (group?["members"] as? [[String: Any]])?.first { $0["name"] as? String == "bo" }
            #expect(bo?["blocksUsed"] as? Int == blocks, "bo's newest numbers reached the server")
            try await screen.keys("q")
        }
    }

    @Test func prepareStoreSetsUpTheDatabaseForRolesThatOwnNothing() async throws {
        let server = try await Server(prepared: false)
        let prepared = try await Binary.run(
            ["group", "prepare-store", "--home", server.home("admin")],
            environment: ["SCREENMATES_GROUP_STORE": server.url])
        #expect(prepared.status == 0, "\(prepared.stderr)")
        #expect(prepared.stdout.contains("is ready"), "\(prepared.stdout)")
        let version = try await Command.run(
            "/usr/bin/env", ["psql", "-tA", server.url, "-c", "SELECT screenmates.schema_version()"])
        // What clients from before identities read: a version newer than theirs, so they stop.
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "\(version.stderr)")
    }

    @Test func anUnreachableServerIsReportedLikeAnUnreachableFile() async throws {
        let server = try await Server()
        try await server.member("ana")
        let result = try await Binary.run(
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

    /// `.ci/postgres` in this checkout: starts and stops servers of a test's own.
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".ci/postgres").path
    }

    /// Runs `body` with a server of the test's own (`.ci/postgres START DIRECTORY`, `start` or
    /// `start-login`: its directory and what it printed), which is stopped afterwards, however
    /// `body` ends.
    static func withOwnServer(_ start: String, _ body: (String, Command.Result) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "screenmates-e2e-postgres-" + UUID().uuidString
        let started = try await Command.run(script, [start, directory])
        do {
            try await body(directory, started)
        } catch {
            _ = try? await Command.run(script, ["stop", directory], timeout: 60)
            throw error
        }
        _ = try? await Command.run(script, ["stop", directory], timeout: 60)
    }

    /// Creates a database and returns the URL that reaches it; `prepared`, with the group
    /// store's schema, and its members choose their clock (the store's owner allows it for demos and tests), since
    /// these tests run their homes on a simulated day, not the server's.
    static func newDatabase(prepared: Bool = true) async throws -> String {
        let url = try #require(url)
        let name = "screenmates_e2e_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let created = try await Command.run("/usr/bin/env", ["psql", "-q", url, "-c", "CREATE DATABASE \(name)"])
        #expect(created.status == 0, "psql: \(created.stderr)")
        let database = replacingDatabase(in: url, with: name)
        if prepared { try await letMembersChooseTheirClock(database) }
        return database
    }

    /// Sets the schema up in the database at `url` as its owner, and lets its members choose
    /// their clock (what the store's owner allows for demos and tests).
    static func letMembersChooseTheirClock(_ url: String) async throws {
        let home = NSTemporaryDirectory() + "screenmates-pg-owner-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let prepared = try await Binary.run(
            ["group", "prepare-store", "--home", home], environment: ["SCREENMATES_GROUP_STORE": url])
        #expect(prepared.status == 0, "prepare-store: \(prepared.stderr)")
        let relaxed = try await Command.run(
            "/usr/bin/env",
            ["psql", "-q", url, "-c", "UPDATE screenmates.store_policy SET members_choose_clock = true"])
        #expect(relaxed.status == 0, "psql: \(relaxed.stderr)")
    }

    /// PgBouncer in front of the test server (`SCREENMATES_TEST_PGBOUNCER`), when one runs.
    static let bouncerURL = ProcessInfo.processInfo.environment["SCREENMATES_TEST_PGBOUNCER"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The database of `url`, reached through PgBouncer.
    static func throughBouncer(_ url: String) -> String? {
        guard let bouncerURL, let scheme = url.range(of: "://") else { return nil }
        let afterScheme = url[scheme.upperBound...]
        let query = afterScheme.firstIndex(of: "?") ?? url.endIndex
        guard let slash = afterScheme[..<query].firstIndex(of: "/") else { return nil }
        return replacingDatabase(in: bouncerURL, with: String(url[url.index(after: slash)..<query]))
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
