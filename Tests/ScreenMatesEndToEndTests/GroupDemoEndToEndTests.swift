import Foundation
import Glibc
import ScreenMatesTestSupport
import Testing

/// The demo's simulated group-mates: `dashboard --demo` brings them in the demo's own group
/// store, `screenmates demo --members N` adds them to a group of the user's own. Either way they
/// are simulated inside the one process, never join a group with real people in it, never take
/// a name the group has, and leave nothing behind.
@Suite struct GroupDemoEndToEndTests {
    /// The names in the group `home` is in (through `store`, when given).
    static func memberNames(_ home: String, store: String? = nil) async throws -> [String] {
        let shown = try await Binary.run(
            ["group", "show", "--json", "--home", home] + (store.map { ["--group-store", $0] } ?? []))
        let members = (try? json(shown.stdout)["members"] as? [[String: Any]]) ?? []
        return members.compactMap { $0["name"] as? String }
    }

    /// Processes other than `pid` whose command line names `text`.
    static func processes(naming text: String, besides pid: Int32) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { other in
            guard other != pid, let data = FileManager.default.contents(atPath: "/proc/\(other)/cmdline") else {
                return false
            }
            return String(decoding: data, as: UTF8.self).contains(text)
        }.count
    }

    @Test func theMatesRunInTheDemoProcessUntilCtrlCAndThenLeaveTheGroupItMade() async throws {
        let home = Binary.Home()
        let demo = try await SpawnedProcess(
            Binary.path,
            ["demo", "--home", home.path, "--members", "3", "--speed", "60"])
        defer { demo.kill() }
        var names: [String] = []
        for _ in 0..<300 where !demo.hasEnded && names.count < 4 {
            try await Task.sleep(for: .milliseconds(100))
            names = try await Self.memberNames(home.path)
        }
        #expect(Set(names) == ["me", "ana", "bo", "cy"], "\(demo.standardError)")
        // No process per mate: the demo is the only one writing under the home.
        #expect(Self.processes(naming: home.path, besides: demo.pid) == 0)
        demo.kill(SIGINT)
        #expect(await demo.wait(timeout: 60) == 130, "\(demo.standardError)")
        // Standard output goes to a pipe here, so it arrives when the demo ends.
        #expect(demo.lines.contains { $0.contains("you and 3 simulated members (ana, bo, cy)") }, "\(demo.lines)")
        #expect(
            demo.lines.contains { $0.hasPrefix("Stopped 3 simulated members; they and you left group ") },
            "\(demo.lines)")
        // The group was made for the demo: the user left it too, and nothing is left of it.
        #expect(try await Self.memberNames(home.path) == [])
        let status = try await Binary.run(["status", "--json", "--home", home.path])
        #expect((try json(status.stdout)["group"] as? [String: Any])?["code"] is NSNull, "\(status.stdout)")
    }

    /// A user called ana (the first mate's name) gets mates bo and cy; once a real member (Bo)
    /// is in the group, the demo refuses and adds nobody; a PostgreSQL store is refused at once.
    @Test func theMatesPassOverTheUsersNameAndNeverJoinAGroupWithOthers() async throws {
        let home = Binary.Home()
        let store = home.path + "-group-store.sqlite"
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let created = try await Binary.run(["group", "create", "--home", home.path, "--group-store", store])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(
            created.stdout.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        )

        let demo = try await SpawnedProcess(
            Binary.path, ["demo", "--home", home.path, "--group-store", store, "--members", "2", "--speed", "60"])
        defer { demo.kill() }
        var names: [String] = []
        for _ in 0..<300 where !demo.hasEnded && names.count < 3 {
            try await Task.sleep(for: .milliseconds(100))
            names = try await Self.memberNames(home.path, store: store)
        }
        #expect(Set(names) == ["ana", "bo", "cy"], "\(demo.standardError)")
        demo.kill(SIGINT)
        #expect(await demo.wait(timeout: 60) == 130, "\(demo.standardError)")

        let bo = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", bo.path, "--name", "Bo"]).status == 0)
        let joined = try await Binary.run(["group", "join", code, "--home", bo.path, "--group-store", store])
        #expect(joined.status == 0, "\(joined.stderr)")
        let refused = try await Binary.run(["demo", "--home", home.path, "--group-store", store, "--members", "2"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("1 other member"), "\(refused.stderr)")
        #expect(Set(try await Self.memberNames(home.path, store: store)) == ["ana", "Bo"])

        let server = try await Binary.run([
            "demo", "--home", home.path, "--group-store", "postgres://ana@/screenmates?host=/nonexistent", "--members",
            "2",
        ])
        #expect(server.status == 1 && server.stderr.contains("verified identity"), "\(server.stderr)")
    }

    /// `dashboard --demo --members 3`: the board shows the user and three mates, who live in the
    /// demo's own store and leave it when the dashboard ends; mates a killed dashboard left behind
    /// are taken out by the next run, not added to.
    @Test func theDashboardDemoBringsItsMatesAndLeavesNothingBehind() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let store = home.path + "/demo-group.sqlite"
        let dashboard = "\(Binary.path) --home \(home.path) dashboard --demo --members 3"
        let killed = try await Tmux(width: 100, height: 30)
        try await killed.type(dashboard)
        try await killed.waitFor(timeout: 30) { screen in ["bo", "cy", "dee"].allSatisfy { screen.contains(" \($0) ") }
        }
        #expect(try await killed.screen().contains("4 members"))
        kill(try #require(try await killed.childPID(named: "screenmates")), SIGKILL)
        #expect(Set(try await Self.memberNames(home.path, store: store)) == ["ana", "bo", "cy", "dee"])

        let screen = try await Tmux(width: 100, height: 30)
        try await screen.type(dashboard + "; echo EX\"\"IT=$?")
        let board = try await screen.waitFor(timeout: 30) { screen in
            ["bo", "cy", "dee"].allSatisfy { screen.contains(" \($0) ") }
        }
        #expect(board.contains("4 members"), "\(board)")
        // The board may show the killed run's mates (the last synced group) before this run has
        // taken them out and brought its own in: the store holds all four once it has.
        var names: Set<String> = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, names != ["ana", "bo", "cy", "dee"] {
            names = Set(try await Self.memberNames(home.path, store: store))
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(names == ["ana", "bo", "cy", "dee"])
        try await screen.keys("q")
        try await screen.waitFor("EXIT=0")
        #expect(try await Self.memberNames(home.path, store: store) == ["ana"])
    }

    /// The evening demo screenmates(1) shows, on 80×24 and twice as fast: the mates' rows move on
    /// the leaderboard, and the 75 %, 90 %, over and new-day notices each come as a toast.
    @Test func theDemoCommandShowsMovingMatesAndEveryNoticeOnASmallTerminal() async throws {
        let data = Binary.Home()
        let environment = ["XDG_DATA_HOME": data.path]
        let setup = try await Binary.run(
            ["setup", "--name", "ana", "--start-at", "2026-11-21T18:00"], environment: environment)
        #expect(setup.status == 0, "\(setup.stderr)")
        let tmux = try await Tmux(width: 80, height: 24, environment: environment)
        let written = data.path + "/terminal-output"
        try await tmux.record(to: written)
        try await tmux.type(
            "\(Binary.path) dashboard --demo --scenario evening-binge --speed 120 --start-at 2026-11-21T18:00")
        let toasts = ["! 75 % of today's limit", "! 90 % of today's limit", "! Over today's limit", "A new day"]
        var seen: Set<String> = []
        var boards: Set<String> = []
        // At ×120 the crossings come 30 s apart or more (at ×600 a loaded machine's pause once
        // carried the clock past two, and only the higher is shown) and the day ends 180 s in;
        // toasts come one after another, 5 s each, after the mates' own.
        let deadline = ContinuousClock.now + .seconds(270)
        while ContinuousClock.now < deadline, seen.count < toasts.count || boards.count < 2 {
            let screen = try await tmux.screen()
            for toast in toasts where screen.contains(toast) { seen.insert(toast) }
            let mates = screen.split(separator: "\n").filter { line in
                ["bo", "cy", "dee"].contains { line.contains(" \($0) ") }
            }
            if !mates.isEmpty { boards.insert(mates.joined(separator: "\n")) }
            try await Task.sleep(for: .milliseconds(200))
        }
        let last = try await tmux.screen()
        // A toast stays 5 s: one the test did not capture in that time (a loaded machine) is in
        // what the dashboard wrote to the terminal.
        let output = Tmux.recorded(written)
        for toast in toasts where output.contains(toast) { seen.insert(toast) }
        if seen != Set(toasts) {
            // What the notices log holds says whether a toast was missed or never made.
            try await tmux.keys("n")
            try await Task.sleep(for: .seconds(2))
            Issue.record("toasts seen: \(seen)\n\(last)\nthe notices log:\n\(try await tmux.screen())")
            try await tmux.keys("n")
        }
        #expect(boards.count >= 2, "the mates' rows never moved: \(boards)")
        try await tmux.keys("q")
    }

    /// A home in a group elsewhere keeps it: the demo brings no mates into it and says why.
    @Test func theDashboardDemoBringsNoMatesIntoARealGroup() async throws {
        let home = Binary.Home()
        let store = home.path + "-friends.sqlite"
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        #expect(try await Binary.run(["group", "create", "--home", home.path, "--group-store", store]).status == 0)
        let screen = try await Tmux(width: 100, height: 30)
        try await screen.type("\(Binary.path) --home \(home.path) dashboard --demo --speed 60")
        let shown = try await screen.waitFor("no demo mates")
        #expect(shown.contains("1 member"), "\(shown)")
        try await screen.keys("q")
        #expect(try await Self.memberNames(home.path, store: store) == ["ana"])
        #expect(!FileManager.default.fileExists(atPath: home.path + "/demo-group.sqlite"))
    }
}
