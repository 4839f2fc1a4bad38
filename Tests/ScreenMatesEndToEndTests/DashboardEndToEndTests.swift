import Foundation
import Testing

/// The real binary, in a real terminal (tmux), read as text.
@Suite(.serialized) struct DashboardEndToEndTests {
    let binary = Binary.path

    /// Starts a shell in tmux that records `stty -g`, runs the dashboard, and records its exit
    /// status and `stty -g` again.
    private func launch(_ tmux: Tmux, home: Binary.Home, arguments: String) throws -> (before: String, after: String) {
        let before = home.path + "/stty.before"
        let after = home.path + "/stty.after"
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        try tmux.type(
            "stty -g > \(before); \(binary) --home \(home.path) \(arguments); echo EX\"\"IT=$?; stty -g > \(after)")
        return (before, after)
    }

    private func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(missing)"
    }

    @Test func theDashboardShowsItsFourPartsMovingAndQuitRestoresTheTerminal() throws {
        let home = Binary.Home()
        let setup = try Binary.run(["setup", "--home", home.path, "--name", "ana"])
        #expect(setup.status == 0, "setup failed: \(setup.stderr)")
        let tmux = try Tmux()
        let stty = try launch(
            tmux, home: home, arguments: "dashboard --demo --speed 3600 --start-at 2026-11-21T07:00 --seed 7")
        let screen = try tmux.waitFor(timeout: 15) { screen in
            // Wait until the demo monitor has written a few blocks.
            screen.contains("ana (you)") && !screen.contains("0 / 8 blocks")
        }
        for part in [
            "ScreenMates", "Balance", "earned", "Streak", "best", "Today", "blocks", "Leaderboard", "ana (you)",
            "q quit", "? help",
        ] {
            #expect(screen.contains(part), "missing \(part) in\n\(screen)")
        }
        try tmux.keys("q")
        let after = try tmux.waitFor("EXIT=")
        #expect(after.contains("EXIT=0"), "\(after)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(read(stty.after) == read(stty.before))
    }

    @Test func statusAgreesWithTheScreen() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "bo"])
        let tmux = try Tmux()
        _ = try launch(tmux, home: home, arguments: "dashboard --demo --speed 120 --start-at 2026-11-21T12:00 --seed 3")
        try tmux.waitFor("bo (you)")
        // Wait for at least one block, then compare the screen and status between two
        // identical captures, so a block landing in between cannot confuse the comparison.
        var agreed = false
        let deadline = Date().addingTimeInterval(30)
        while !agreed && Date() < deadline {
            let first = try tmux.screen()
            let status = try Binary.run(["status", "--home", home.path, "--json"])
            let second = try tmux.screen()
            guard first == second, status.status == 0,
                let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
                let blocks = json["blocksUsed"] as? Int, let goal = json["dailyGoalBlocks"] as? Int,
                let earned = json["earnedSeconds"] as? Int, blocks + earned > 0
            else {
                Thread.sleep(forTimeInterval: 0.5)
                continue
            }
            #expect(first.contains("\(blocks) / \(goal) blocks"), "status says \(blocks)/\(goal); screen:\n\(first)")
            #expect(first.contains("bo (you)"))
            agreed = true
        }
        #expect(agreed, "no moment where the screen was stable and some usage had been recorded")
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
    }

    /// SIGTERM and SIGINT end cleanly (143, 130), SIGHUP too (129); a crash (SIGSEGV, SIGABRT)
    /// still dies of its signal, but only after the terminal was put back.
    @Test(arguments: [
        ("TERM", SIGTERM, 143), ("INT", SIGINT, 130), ("HUP", SIGHUP, 129), ("SEGV", SIGSEGV, 139),
        ("ABRT", SIGABRT, 134),
    ])
    func everyEndingRestoresTheTerminal(name: String, signal: Int32, status: Int) throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "dee"])
        let tmux = try Tmux()
        let stty = try launch(tmux, home: home, arguments: "dashboard")
        try tmux.waitFor("dee (you)")
        let pid = try #require(try tmux.childPID(named: "screenmates"))
        kill(pid, signal)
        let after = try tmux.waitFor("EXIT=")
        #expect(after.contains("EXIT=\(status)"), "\(name): \(after)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(read(stty.after) == read(stty.before), "\(name) left the terminal changed")
    }

    @Test func ctrlZSuspendsWithTheTerminalRestoredAndFgRedraws() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "ivo"])
        let tmux = try Tmux()
        let before = home.path + "/stty.before"
        let suspended = home.path + "/stty.suspended"
        try tmux.type("stty -g > \(before)")
        // A plain command line: bash would run the rest of a list while the job is stopped.
        try tmux.type("\(binary) --home \(home.path) dashboard")
        try tmux.waitFor("ivo (you)")
        try tmux.keys("C-z")
        let stopped = try tmux.waitFor("Stopped")
        #expect(!stopped.contains("ivo (you)"), "the shell's screen should be back:\n\(stopped)")
        try tmux.type("stty -g > \(suspended); fg")
        let resumed = try tmux.waitFor("ivo (you)")
        #expect(resumed.contains("Leaderboard"))
        #expect(read(suspended) == read(before), "the terminal was not restored while suspended")
        try tmux.keys("q")
        // Back at the shell before typing on: keys sent while the dashboard is still closing
        // would be read by it.
        _ = try tmux.waitFor { !$0.contains("Leaderboard") }
        try tmux.type("echo EX\"\"IT=$?")
        let exit = try tmux.waitFor("EXIT=")
        let log = (try? String(contentsOfFile: home.path + "/screenmates.log", encoding: .utf8)) ?? ""
        #expect(exit.contains("EXIT=0"), "\(exit)\nlog:\n\(log.suffix(1500))")
    }

    @Test func theFirstRunAsksForANameAndChecksIt() throws {
        let home = Binary.Home()
        let tmux = try Tmux()
        _ = try launch(tmux, home: home, arguments: "")
        try tmux.waitFor("Welcome to ScreenMates")
        // The apps step comes first, with the suggested apps picked: accept them.
        try tmux.waitFor("Which apps")
        try tmux.keys("Enter")
        try tmux.waitFor("display name")
        try tmux.keys("-l", "bad name")
        try tmux.keys("Enter")
        // The refusal is marked with ✗ (the hint above the field also mentions underscores).
        let refused = try tmux.waitFor("✗")
        #expect(refused.contains("remove") && refused.contains("space"), "\(refused)")
        #expect(!refused.contains("looks good"), "\(refused)")
        for _ in 0..<9 { try tmux.keys("BSpace") }
        try tmux.keys("-l", "ana_2")
        try tmux.waitFor("looks good")
        try tmux.keys("Enter")
        // The group step: not now.
        try tmux.waitFor("Not now")
        try tmux.keys("Down", "Down", "Enter")
        let dashboard = try tmux.waitFor("ana_2 (you)")
        #expect(dashboard.contains("Leaderboard"))
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
        let status = try Binary.run(["status", "--home", home.path, "--json"])
        #expect(status.stdout.contains("\"ana_2\""))
    }

    @Test func aTerminalTooSmallSaysSoAndStillQuitsOnQ() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "eve"])
        let tmux = try Tmux()
        _ = try launch(tmux, home: home, arguments: "dashboard")
        try tmux.waitFor("eve (you)")
        try tmux.resize(width: 50, height: 12)
        let small = try tmux.waitFor("Terminal too small")
        #expect(small.contains("50×12"))
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor("eve (you)")
        try tmux.resize(width: 40, height: 10)
        try tmux.waitFor("Terminal too small")
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
    }

    @Test func helpOpensOnQuestionMarkAndEscReturnsAtOnce() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "fay"])
        let tmux = try Tmux()
        _ = try launch(tmux, home: home, arguments: "dashboard")
        try tmux.waitFor("fay (you)")
        try tmux.keys("?")
        try tmux.waitFor("The numbers")
        let pressed = Date()
        try tmux.keys("Escape")
        try tmux.waitFor("fay (you)")
        #expect(Date().timeIntervalSince(pressed) < 0.8, "Esc should act at once, not after a second")
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
    }

    @Test func aNonUTF8LocaleFallsBackToASCII() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "gus"])
        let tmux = try Tmux(environment: ["LANG": "C", "LC_ALL": "C"])
        _ = try launch(tmux, home: home, arguments: "dashboard")
        let screen = try tmux.waitFor("gus (you)")
        #expect(screen.contains("+- Balance"), "\(screen)")
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII }, "\(screen)")
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
    }

    @Test func noColorDrawsWithoutColours() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "hal"])
        let tmux = try Tmux(environment: ["NO_COLOR": "1"])
        _ = try launch(tmux, home: home, arguments: "dashboard --theme dark")
        try tmux.waitFor("hal (you)")
        let colored = try tmux.screen(escapes: true)
        #expect(!Self.hasColour(colored), "a colour was drawn:\n\(colored)")
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
        // And the same theme with colours does use them.
        let tmux2 = try Tmux()
        _ = try launch(tmux2, home: home, arguments: "dashboard --theme dark")
        try tmux2.waitFor("hal (you)")
        #expect(Self.hasColour(try tmux2.screen(escapes: true)))
        try tmux2.keys("q")
    }

    /// Whether an SGR escape in `screen` sets a foreground or background colour (30–37, 40–47,
    /// 90–97, 100–107, 38;5;n, 48;5;n, 38;2;…); 39 and 49 only reset to the default.
    static func hasColour(_ screen: String) -> Bool {
        let pattern = #"\x1B\[([0-9;]*)m"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(screen.startIndex..., in: screen)
        for match in regex.matches(in: screen, range: range) {
            let codes = (screen as NSString).substring(with: match.range(at: 1)).split(separator: ";").compactMap {
                Int($0)
            }
            if codes.contains(where: {
                (30...37).contains($0) || (40...47).contains($0) || (90...97).contains($0) || (100...107).contains($0)
                    || $0 == 38 || $0 == 48
            }) {
                return true
            }
        }
        return false
    }
}
