import Foundation
import ScreenMatesTestSupport
import Testing

/// One person on two machines, tried as people would, on a PostgreSQL group store: ana's laptop
/// and her desk (restored from a copy of her identity) each run a dashboard, as does bo. Real
/// monitor processes write the blocks, on each of ana's machines. Both of ana's dashboards and
/// bo's board show her sum, and the 75 % notice comes when the *sum* crosses it: on the desk,
/// where the crossing block was used, and on the laptop once it hears of it — once on each. Run
/// with everyone on the server directly, and with ana's two machines through PgBouncer (where a
/// dashboard asks for changes every 2 s).
@Suite(
    .enabled(
        if: PostgresServer.url != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"))
struct PostgresPersonsDayEndToEndTests {
    typealias Server = PostgresGroupEndToEndTests.Server

    @Test func bothOfAnasDashboardsAndBosBoardShowHerSumAndTheNoticeComesWhenTheSumCrosses() async throws {
        try await Self.anaOnTwoMachines(pooled: false)
    }

    @Test(
        .enabled(
            if: PostgresServer.bouncerURL != nil,
            "needs PgBouncer: .ci/pgbouncer start DIR \"$SCREENMATES_TEST_POSTGRES\" (as .ci/run does)"))
    func throughAConnectionPoolerTheSumStillReachesEveryScreen() async throws {
        try await Self.anaOnTwoMachines(pooled: true)
    }

    /// `pooled`: ana's laptop and desk reach the server through PgBouncer; bo reaches it directly.
    static func anaOnTwoMachines(pooled: Bool) async throws {
        let server = try await Server()
        let anasURL = pooled ? try #require(PostgresServer.throughBouncer(server.url)) : server.url
        try await server.member("ana")
        let created = try await server.run("ana", ["group", "create"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(
            created.stdout.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        )
        try await server.member("bo")
        #expect(try await server.run("bo", ["group", "join", code]).status == 0)

        // ana's desk: her identity copied over, restored on the clock the dashboards run on.
        let copy = server.root + "/ana-identity-copy"
        try FileManager.default.copyItem(atPath: server.home("ana") + "/member-identity", toPath: copy)
        let restored = try await Binary.run(
            ["restore", "--identity", copy, "--home", server.home("desk")] + Server.setupClock,
            environment: ["SCREENMATES_GROUP_STORE": anasURL])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("This is ana's second machine ("), "\(restored.stdout)")

        let laptop = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": anasURL])
        try await laptop.type("\(Binary.path) --home \(server.home("ana")) \(Server.dashboard)")
        let desk = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": anasURL])
        try await desk.type("\(Binary.path) --home \(server.home("desk")) \(Server.dashboard)")
        let bo = try await Tmux(environment: ["SCREENMATES_GROUP_STORE": server.url])
        try await bo.type("\(Binary.path) --home \(server.home("bo")) \(Server.dashboard)")
        for screen in [laptop, desk] { try await screen.waitFor("bo", timeout: 60) }
        try await bo.waitFor("ana", timeout: 60)

        // 3 blocks on the laptop, 2 on the desk: 5 of 8 (62 %), no notice yet.
        try await addVice(3, home: server.home("ana"), seeds: 1)
        try await addVice(2, home: server.home("desk"), seeds: 1001)
        for screen in [laptop, desk] {
            let shown = try await screen.waitFor(timeout: 60) { today($0, 5) }
            #expect(today(shown, 5), "\(shown)")
            #expect(!shown.contains("75 % of today's limit"), "\(shown)")
        }
        let laptopScreen = try await laptop.waitFor(timeout: 60) { $0.contains("2 machines") }
        #expect(laptopScreen.contains("ana · 2 machines"), "\(laptopScreen)")
        #expect(laptopScreen.contains("3 here, 2 on other machines"), "\(laptopScreen)")

        // The desk's sixth block crosses 75 % of the sum.
        let written = try await addVice(1, home: server.home("desk"), seeds: 2001)
        // All three screens watched at once, every 50 ms: when each first showed it.
        let crossed: [(String, Tmux, (String) -> Bool)] = [
            ("desk", desk, { today($0, 6) && $0.contains("75 % of today's limit") }),
            ("laptop", laptop, { today($0, 6) && $0.contains("75 % of today's limit") }),
            ("bo", bo, { row($0, "ana", 6) }),
        ]
        var delays: [String: Duration] = [:]
        var last: [String: String] = [:]
        let deadline = ContinuousClock.now + .seconds(60)
        while delays.count < crossed.count && ContinuousClock.now < deadline {
            for (name, screen, shows) in crossed where delays[name] == nil {
                last[name] = try await screen.screen()
                if shows(last[name] ?? "") { delays[name] = ContinuousClock.now - written }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        for (name, _, _) in crossed {
            #expect(delays[name] != nil, "\(name) never showed ana's sum crossing 75 %:\n\(last[name] ?? "")")
        }
        print(
            "one member, two machines (\(pooled ? "ana's through PgBouncer" : "all direct")): from the desk's "
                + "monitor starting, its block showed on "
                + crossed.map { name, _, _ in "\(name)'s screen in \(delays[name].map { "\($0)" } ?? "never")" }
                .joined(separator: ", "))

        // Each of ana's machines showed the notice once, and says the sum and its own part (while
        // the dashboards run: `status` follows their clock).
        var days: [[Int?]] = []
        for (home, others) in [("ana", 3), ("desk", 3)] {
            let status = try await Binary.run(
                ["status", "--json", "--home", server.home(home)], environment: ["SCREENMATES_GROUP_STORE": anasURL])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            #expect(object["blocksUsed"] as? Int == 6, "\(home): \(status.stdout)")
            #expect(object["blocksOnOtherMachines"] as? Int == others, "\(home): \(status.stdout)")
            #expect(object["state"] as? String == "warning", "\(home)")
            let kinds = (object["notifications"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
            #expect(kinds.filter { $0 == "limit-75" }.count == 1, "\(home): \(kinds)")
            days.append(
                ["balanceSeconds", "earnedSeconds", "spentSeconds", "overdraftSeconds", "productiveBlocks"].map {
                    object[$0] as? Int
                })
        }
        // The same day on both: the balance, what was earned (the productive blocks of both) and spent.
        #expect(days.count == 2 && days[0] == days[1], "\(days)")
        for screen in [laptop, desk, bo] { try await screen.keys("q") }
    }

    /// Today's panel says `blocks` of 8.
    static func today(_ screen: String, _ blocks: Int) -> Bool {
        screen.contains("\(blocks) / 8 blocks")
    }

    /// The leaderboard row of `name` says `blocks` of 8.
    static func row(_ screen: String, _ name: String, _ blocks: Int) -> Bool {
        screen.split(separator: "\n").contains { $0.contains(" \(name) ") && $0.contains("\(blocks)/8") }
    }

    /// Runs the simulated monitor of `home`, one event at a time, until it has written `count`
    /// more vice blocks of its own (its events are vice or productive). Returns when the monitor
    /// that wrote the last of them started.
    /// (Counted in the home's database, which answers at once: `status` may ask the group store.)
    @discardableResult
    static func addVice(_ count: Int, home: String, seeds first: Int) async throws -> ContinuousClock.Instant {
        let start = try await viceEvents(home)
        var seed = first
        var own = start
        var started = ContinuousClock.now
        while own < start + count && seed < first + 200 {
            started = ContinuousClock.now
            let monitor = try await Binary.run([
                "monitor", "--home", home, "--rate", "max", "--count", "1", "--seed", "\(seed)",
            ])
            #expect(monitor.status == 0, "\(monitor.stderr)")
            own = try await viceEvents(home)
            seed += 1
        }
        #expect(own == start + count, "\(home)'s monitor wrote \(own - start) vice blocks of \(count)")
        return started
    }

    /// The vice blocks `home`'s monitors wrote (all on the dashboards' day).
    static func viceEvents(_ home: String) async throws -> Int {
        let counted = try await Command.run(
            "/usr/bin/env",
            [
                "sqlite3", "-readonly", home + "/local.sqlite",
                "SELECT count(*) FROM usage_event WHERE category = 'vice'",
            ])
        return try #require(Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(counted)")
    }
}
