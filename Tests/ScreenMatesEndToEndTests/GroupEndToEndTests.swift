import Foundation
import GRDB
import ScreenMatesTestSupport
import Testing

/// Groups from the command line and on screen: two people on one host share a group store file.
@Suite struct GroupEndToEndTests {
    /// A temporary directory holding the shared group store, and homes for its members.
    final class Host {
        let root = NSTemporaryDirectory() + "screenmates-group-" + UUID().uuidString
        var store: String { root + "/group.sqlite" }

        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func home(_ name: String) -> String { root + "/" + name }

        /// Runs `screenmates` for the member whose home is `name`.
        func run(_ name: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String)
        {
            try await Binary.run(arguments + ["--home", home(name), "--group-store", store])
        }

        /// Sets a member up with a name, one vice app and one productive app; with `onDay`, on
        /// the simulated day whose dashboards `simulatedDashboard` opens.
        func member(_ name: String, onDay: Bool = false) async throws {
            let clock = onDay ? ["--start-at", "\(simulatedDay)T09:00"] : []
            let setup = try await run(
                name, ["setup", "--name", name, "--vice", "tiktok", "--productive", "kindle"] + clock)
            #expect(setup.status == 0, "\(setup.stderr)")
        }

        func create(_ name: String, goal: Int = 8) async throws -> String {
            let created = try await run(name, ["group", "create", "--goal", "\(goal)"])
            #expect(created.status == 0, "\(created.stderr)")
            return try #require(
                created.stdout.split(separator: " ").last.map {
                    String($0).trimmingCharacters(in: .whitespacesAndNewlines)
                })
        }

        /// The member's vice blocks today, as `status` reports them (a monitor's event may be
        /// productive time, which uses no block).
        func blocksUsed(_ name: String) async throws -> Int {
            try #require(try json(try await run(name, ["status", "--json"]).stdout)["blocksUsed"] as? Int)
        }
    }

    /// Tests that count today's blocks run on a simulated day, so that midnight on the real clock
    /// cannot reset the figures they wait for: the dashboards run its clock from 10:00 (and
    /// publish it), and the monitors and `status` of the same home follow it.
    static let simulatedDay = "2026-11-21"
    static let simulatedDashboard = "dashboard --speed 1 --start-at \(simulatedDay)T10:00"

    @Test func createJoinShowAndLeaveFromTheCommandLine() async throws {
        let host = try Host()
        try await host.member("ana")
        let code = try await host.create("ana", goal: 6)
        #expect(code.count == 6)
        try await host.member("bo")
        // Case and spaces do not matter.
        let spaced = code.lowercased().prefix(3) + " " + code.lowercased().suffix(3)
        let joined = try await host.run("bo", ["group", "join", String(spaced)])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("2 members"))
        #expect(try await host.run("bo", ["group", "join", code]).status == 0, "joining again changes nothing")
        let shown = try json(try await host.run("ana", ["group", "show", "--json"]).stdout)
        #expect(shown["code"] as? String == code)
        #expect(shown["dailyGoalBlocks"] as? Int == 6)
        let members = try #require(shown["members"] as? [[String: Any]])
        #expect(Set(members.compactMap { $0["name"] as? String }) == ["ana", "bo"])
        // The group's goal is the daily limit now.
        let status = try json(try await host.run("bo", ["status", "--json"]).stdout)
        #expect(status["dailyGoalBlocks"] as? Int == 6)
        #expect((status["group"] as? [String: Any])?["code"] as? String == code)

        #expect(try await host.run("bo", ["group", "leave"]).status == 0)
        let after = try json(try await host.run("ana", ["group", "show", "--json"]).stdout)
        #expect((after["members"] as? [[String: Any]])?.count == 1)
        #expect(try await host.run("bo", ["group", "leave"]).status != 0, "leaving twice says so")
    }

    /// The monitor only records; `sync --watch` reports what it records while no dashboard is
    /// open, and the home remembers the store it joined through, so neither needs
    /// `--group-store`. Compared by the instant of the newest usage (not today's blocks), so
    /// midnight on the real clock changes nothing here.
    @Test func aMonitorsUsageReachesTheGroupThroughSyncWatchWithoutADashboard() async throws {
        let host = try Host()
        try await host.member("ana")
        let code = try await host.create("ana")
        try await host.member("bo")
        #expect(try await host.run("bo", ["group", "join", code]).status == 0)
        let bo = host.home("bo")
        let shown = try await Binary.run(["group", "show", "--json", "--home", bo])
        #expect(shown.status == 0 && shown.stdout.contains(code), "the store is remembered: \(shown.stderr)")

        let monitor = try await Binary.run(["monitor", "--home", bo, "--count", "4", "--rate", "max"])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        #expect(monitor.stderr.contains("sync --watch"), "the monitor says who reports: \(monitor.stderr)")
        let newest = try #require(
            try json(try await Binary.run(["status", "--json", "--home", bo]).stdout)["lastActive"] as? String)
        let unsent = try await Binary.run(["status", "--home", bo])
        #expect(unsent.stdout.contains("not sent yet: today's latest numbers"), "\(unsent.stdout)")

        func seenByAna() async throws -> String? {
            let group = try json(try await host.run("ana", ["group", "show", "--json"]).stdout)
            let members = group["members"] as? [[String: Any]] ?? []
            return members.first { $0["name"] as? String == "bo" }?["lastActive"] as? String
        }
        #expect(try await seenByAna() != newest, "nothing reported yet")
        let watch = try await SpawnedProcess(Binary.path, ["sync", "--watch", "--home", bo])
        let deadline = ContinuousClock.now + .seconds(30)
        var seen = try await seenByAna()
        while seen != newest && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            seen = try await seenByAna()
        }
        #expect(seen == newest, "ana sees bo's newest usage")
        watch.kill(SIGTERM)
        #expect(await watch.wait() == 143, "\(watch.standardError)")
        #expect(watch.lines.first?.contains("Reporting to group \(code)") == true, "\(watch.lines)")
        let sent = try await Binary.run(["status", "--home", bo])
        #expect(sent.stdout.contains("up to date"), "\(sent.stdout)")
    }

    @Test func badCodesAndNamesAreRefusedAndChangeNothing() async throws {
        let host = try Host()
        try await host.member("ana")
        let code = try await host.create("ana")
        try await host.member("Ana")
        let taken = try await host.run("Ana", ["group", "join", code])
        #expect(taken.status == 1, "a refusal by the group, not a malformed command line")
        #expect(taken.stderr.contains("already called"), "\(taken.stderr)")
        for (bad, expected) in [("K7Q2X", "6 characters"), ("K7Q2X0", "never 0, O, 1 or I"), ("K7Q2X!", "remove")] {
            let result = try await host.run("Ana", ["group", "join", bad])
            #expect(result.status == 64, "\(bad)")
            #expect(result.stderr.contains(expected), "\(bad): \(result.stderr)")
        }
        let unknown = try await host.run("Ana", ["group", "join", "ZZZZZZ"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no group with the code"), "\(unknown.stderr)")
        let outside = try await host.run("Ana", ["group", "leave"])
        #expect(outside.status == 1 && outside.stderr.contains("not in a group"), "\(outside.stderr)")
        let shown = try json(try await host.run("ana", ["group", "show", "--json"]).stdout)
        #expect((shown["members"] as? [[String: Any]])?.count == 1)
        let status = try json(try await host.run("Ana", ["status", "--json"]).stdout)
        #expect((status["group"] as? [String: Any])?["code"] is NSNull)
    }

    @Test func wrongCodesAreRateLimited() async throws {
        let host = try Host()
        try await host.member("ana")
        _ = try await host.create("ana")
        try await host.member("eve")
        var last = ""
        for attempt in 0..<7 {
            let code = "ZZZZ" + String(Array("23456789")[attempt]) + "Z"
            last = try await host.run("eve", ["group", "join", code]).stderr
        }
        #expect(last.contains("Too many wrong group codes"), "\(last)")
    }

    @Test func aMissingGroupStoreIsUnreachableNotCreated() async throws {
        let host = try Host()
        try await host.member("ana")
        let result = try await host.run("ana", ["group", "join", "K7Q2XM"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot be reached"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: host.store))
    }

    /// Each of ana's new blocks reaches bo's open dashboard by itself (no key pressed). The
    /// deadline is generous for a loaded machine yet well short of a once-a-minute poll; how
    /// fast it is belongs to the benchmark.
    @Test func aChangeByOneMemberShowsOnTheOthersDashboard() async throws {
        let host = try Host()
        try await host.member("ana", onDay: true)
        let code = try await host.create("ana")
        try await host.member("bo", onDay: true)
        #expect(try await host.run("bo", ["group", "join", code]).status == 0)
        let anaScreen = try await Tmux()
        try await anaScreen.type(
            "\(Binary.path) --home \(host.home("ana")) --group-store \(host.store) \(Self.simulatedDashboard)")
        let boScreen = try await Tmux()
        try await boScreen.type(
            "\(Binary.path) --home \(host.home("bo")) --group-store \(host.store) \(Self.simulatedDashboard)")
        try await boScreen.waitFor("ana")
        try await anaScreen.waitFor("bo")
        var shown = 0
        var seed = 0
        while shown < 3 && seed < 60 {
            seed += 1
            let monitor = try await Binary.run([
                "monitor", "--home", host.home("ana"), "--rate", "max", "--count", "1", "--seed", "\(seed)",
            ])
            #expect(monitor.status == 0, "\(monitor.stderr)")
            let blocks = try await host.blocksUsed("ana")
            guard blocks > shown else { continue }
            shown = blocks
            let screen = try await boScreen.waitFor(timeout: 30) { screen in
                screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(blocks)/8") }
            }
            let row = screen.split(separator: "\n").contains { $0.contains(" ana ") && $0.contains("\(blocks)/8") }
            #expect(row, "ana's block \(blocks) never showed on bo's screen:\n\(screen)")
        }
        #expect(shown == 3, "the monitor gave ana \(shown) vice blocks in \(seed) events")
        try await anaScreen.keys("q")
        try await boScreen.keys("q")
    }

    @Test func theDemoFillsTheGroupAndCtrlCTakesEveryMateAndTheUserOutOfTheGroupItMade() async throws {
        let host = try Host()
        try await host.member("zoe")
        let screen = try await Tmux()
        try await screen.type(
            "\(Binary.path) --home \(host.home("zoe")) --group-store \(host.store) demo --members 3 --speed 120")
        try await screen.waitFor("Ctrl-C stops them")
        let shown = try json(try await host.run("zoe", ["group", "show", "--json"]).stdout)
        let names = Set(((shown["members"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
        #expect(names == ["zoe", "ana", "bo", "cy"])
        try await screen.keys("C-c")
        try await screen.waitFor("Stopped 3 simulated members")
        // The group was made for the demo: zoe left it too, and the store removed it.
        let after = try await host.run("zoe", ["group", "show", "--json"])
        #expect(after.status != 0, "\(after.stdout)")
        let status = try json(try await host.run("zoe", ["status", "--json"]).stdout)
        #expect((status["group"] as? [String: Any])?["code"] is NSNull, "\(status)")
    }

    @Test func aLockedGroupStoreShowsItsReportWaitingAndCatchesUpAfterwards() async throws {
        let host = try Host()
        try await host.member("ana", onDay: true)
        let code = try await host.create("ana")
        try await host.member("bo", onDay: true)
        #expect(try await host.run("bo", ["group", "join", code]).status == 0)
        let screen = try await Tmux()
        try await screen.type(
            "SCREENMATES_GROUP_BUSY_TIMEOUT=0.2 \(Binary.path) --home \(host.home("bo")) --group-store \(host.store) \(Self.simulatedDashboard)"
        )
        try await screen.waitFor("synced")
        // Another program holds the group store's write lock.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        configuration.busyMode = .timeout(5)
        let holder = try DatabaseQueue(path: host.store, configuration: configuration)
        try await holder.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        _ = try await Binary.run(["monitor", "--home", host.home("bo"), "--rate", "max", "--count", "4", "--seed", "9"])
        let blocks = try await host.blocksUsed("bo")
        #expect(blocks > 0, "seed 9 gives bo at least one vice block")
        // The group is still read (WAL readers wait for no writer); only the report waits.
        _ = try await screen.waitFor("store busy", timeout: 30)
        let working = try await screen.waitFor("\(blocks) / 8 blocks", timeout: 30)
        let log = (try? String(contentsOfFile: host.home("bo") + "/screenmates.log", encoding: .utf8)) ?? ""
        #expect(working.contains("store busy"), "the dashboard keeps working from its own numbers:\n\(working)\n\(log)")
        #expect(!working.contains("offline"), "the group was read all along:\n\(working)\n\(log)")
        try await holder.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
        let back = try await screen.waitFor(timeout: 60) { $0.contains("synced") && !$0.contains("store busy") }
        #expect(back.contains("synced") && !back.contains("store busy"), "\(back)")
        // Read from the store on bo's clock (bo's dashboard still runs and publishes it): on the
        // real day, bo's numbers of the simulated one would show as idle.
        let shown = try json(try await host.run("bo", ["group", "show", "--json"]).stdout)
        let bo = (shown["members"] as? [[String: Any]])?.first { $0["name"] as? String == "bo" }
        #expect(bo?["blocksUsed"] as? Int == blocks, "bo's newest numbers reached the group store: \(shown)")
        try await screen.keys("q")
    }
}

/// A command's JSON output as an object.
func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
