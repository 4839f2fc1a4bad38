import Foundation
import Glibc
import Testing

/// The real binary, in a real terminal (tmux), read as text.
///
/// The dashboard runs under a supervisor that is not a shell (`Tmux(supervising:)`): a shell
/// puts the terminal's modes back after every job, so only what the program itself does is
/// seen. What no shell restores is checked after it ends or stops: tmux must show the
/// alternate screen off and the cursor visible.
@Suite(.serialized, .timeLimit(.minutes(5))) struct DashboardEndToEndTests {
    let binary = Binary.path

    /// Starts `screenmates --home HOME ARGUMENTS…` under the supervisor.
    private func start(
        _ home: Binary.Home, _ arguments: [String], environment: [String: String] = [:],
        jobControl: Bool = false
    ) async throws -> Tmux {
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        return try await Tmux(
            environment: environment, supervising: [binary, "--home", home.path] + arguments, jobControl: jobControl)
    }

    /// The pane once tmux has read what the program wrote before it ended or stopped (tmux
    /// reads the terminal on its own schedule): waits, within a generous deadline, for the
    /// terminal to be put back, and returns the state either way.
    private func restoredState(_ tmux: Tmux) async throws -> Tmux.PaneState {
        try await tmux.waitForPane { !$0.alternateOn && $0.cursorVisible }
    }

    /// Presses q and waits for the program to end: status 0, the terminal put back.
    private func quit(_ tmux: Tmux, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await tmux.keys("q")
        let status = try await tmux.waitForProgramEnd()
        let ended = try await restoredState(tmux)
        let screen = try await tmux.screen()
        #expect(
            status == 0, "q: status \(status.map(String.init) ?? "none"), \(ended)\n\(screen)",
            sourceLocation: sourceLocation)
        #expect(!ended.alternateOn, "q left the alternate screen on", sourceLocation: sourceLocation)
        #expect(ended.cursorVisible, "q left the cursor hidden", sourceLocation: sourceLocation)
    }

    /// The state letter of a process in /proc (`T` stopped, `S` sleeping, `Z` ended).
    static func processState(_ pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    }

    /// Waits until `pid` is in `state`; false if it never gets there.
    static func waitForProcess(_ pid: pid_t, state: Character, timeout: TimeInterval = 20) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while processState(pid) != state {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    @Test func theDashboardShowsItsFourPartsMovingAndQuitRestoresTheTerminal() async throws {
        let home = Binary.Home()
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--start-at", "2026-11-21T06:00"])
        #expect(setup.status == 0, "setup failed: \(setup.stderr)")
        let tmux = try await start(
            home, ["dashboard", "--demo", "--speed", "3600", "--start-at", "2026-11-21T07:00", "--seed", "7"])
        let screen = try await tmux.waitFor(timeout: 30) { screen in
            // Wait until the demo monitor has written a few blocks.
            screen.contains("ana (you)") && !screen.contains("0 / 8 blocks")
        }
        for part in [
            "ScreenMates", "Balance", "earned", "Streak", "best", "Today", "blocks", "Leaderboard", "ana (you)",
            "q quit", "? help",
        ] {
            #expect(screen.contains(part), "missing \(part) in\n\(screen)")
        }
        let drawing = try await tmux.paneState()
        #expect(drawing.alternateOn && !drawing.cursorVisible, "the dashboard draws full-screen: \(drawing)")
        try await quit(tmux)
    }

    @Test func statusAgreesWithTheScreen() async throws {
        let home = Binary.Home()
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "bo", "--start-at", "2026-11-21T11:00"])
        #expect(setup.status == 0, "setup failed: \(setup.stderr)")
        let tmux = try await start(
            home, ["dashboard", "--demo", "--speed", "120", "--start-at", "2026-11-21T12:00", "--seed", "3"])
        try await tmux.waitFor("bo (you)")
        // Wait for at least one block, then compare the screen and status between two captures
        // whose progress lines are the same, so a block landing in between cannot confuse the
        // comparison (the clock in the header moves every half second at this speed).
        func progress(_ screen: String) -> String? {
            screen.split(separator: "\n").first { $0.contains(" blocks") && $0.contains(" / ") }.map(String.init)
        }
        var agreed = false
        let deadline = ContinuousClock.now + .seconds(60)
        while !agreed && ContinuousClock.now < deadline {
            let first = try await tmux.screen()
            let status = try await Binary.run(["status", "--home", home.path, "--json"])
            let second = try await tmux.screen()
            guard progress(first) != nil, progress(first) == progress(second), status.status == 0,
                let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
                let blocks = json["blocksUsed"] as? Int, let goal = json["dailyGoalBlocks"] as? Int,
                let earned = json["earnedSeconds"] as? Int, blocks + earned > 0
            else {
                try await Task.sleep(for: .milliseconds(500))
                continue
            }
            #expect(first.contains("\(blocks) / \(goal) blocks"), "status says \(blocks)/\(goal); screen:\n\(first)")
            #expect(first.contains("bo (you)"))
            agreed = true
        }
        #expect(agreed, "no moment where the screen was stable and some usage had been recorded")
        try await quit(tmux)
    }

    /// SIGTERM and SIGINT end cleanly (143, 130), SIGHUP too (129); a crash (SIGSEGV, SIGABRT)
    /// still dies of its signal, but only after the terminal was put back: the alternate screen
    /// off, the cursor visible. No shell runs after the program to tidy up.
    @Test(arguments: [
        ("TERM", SIGTERM, 143), ("INT", SIGINT, 130), ("HUP", SIGHUP, 129), ("SEGV", SIGSEGV, 139),
        ("ABRT", SIGABRT, 134),
    ])
    func everyEndingRestoresTheTerminal(name: String, signal: Int32, status: Int32) async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "dee"]).status == 0)
        let tmux = try await start(home, ["dashboard"])
        try await tmux.waitFor("dee (you)")
        let drawing = try await tmux.paneState()
        #expect(drawing.alternateOn && !drawing.cursorVisible, "\(name): the dashboard draws full-screen: \(drawing)")
        kill(try await tmux.programPID(), signal)
        let exit = try await tmux.waitForProgramEnd()
        let ended = try await restoredState(tmux)
        #expect(exit == status, "\(name): status \(exit.map(String.init) ?? "none")")
        #expect(!ended.alternateOn, "\(name) left the alternate screen on")
        #expect(ended.cursorVisible, "\(name) left the cursor hidden")
    }

    /// What the checks above would see if the program put nothing back: a program stopped by
    /// SIGSTOP or killed by SIGKILL (neither can be caught) leaves the alternate screen on and the
    /// cursor hidden, however long tmux is given to catch up. So those checks can fail.
    @Test func aProgramGivenNoChanceToRestoreLeavesTheTerminalChanged() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "kai"]).status == 0)
        let tmux = try await start(home, ["dashboard"], jobControl: true)
        try await tmux.waitFor("kai (you)")
        let pid = try await tmux.programPID()
        kill(pid, SIGSTOP)
        #expect(try await Self.waitForProcess(pid, state: "T"), "SIGSTOP stops it")
        let stopped = try await tmux.waitForPane(timeout: 3) { !$0.alternateOn || $0.cursorVisible }
        #expect(stopped.alternateOn && !stopped.cursorVisible, "stopped without a chance to restore: \(stopped)")
        kill(pid, SIGKILL)
        #expect(try await tmux.waitForProgramEnd() == 128 + SIGKILL)
        let ended = try await tmux.waitForPane(timeout: 3) { !$0.alternateOn || $0.cursorVisible }
        #expect(ended.alternateOn && !ended.cursorVisible, "killed without a chance to restore: \(ended)")
    }

    /// Ctrl-Z: the program puts the terminal back (alternate screen off, cursor visible) and
    /// stops; continued (SIGCONT, as `fg` sends), it draws the dashboard again. It runs under a
    /// job-control parent that is not a shell, so nothing else restores the terminal meanwhile.
    @Test func ctrlZSuspendsWithTheTerminalRestoredAndResumingRedraws() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ivo"]).status == 0)
        let tmux = try await start(home, ["dashboard"], jobControl: true)
        try await tmux.waitFor("ivo (you)")
        let pid = try await tmux.programPID()
        let drawing = try await tmux.paneState()
        #expect(drawing.alternateOn && !drawing.cursorVisible, "the dashboard draws full-screen: \(drawing)")
        try await tmux.keys("C-z")
        #expect(try await Self.waitForProcess(pid, state: "T"), "Ctrl-Z stops the dashboard")
        let stopped = try await restoredState(tmux)
        #expect(!stopped.alternateOn, "stopped with the alternate screen still on")
        #expect(stopped.cursorVisible, "stopped with the cursor hidden")
        #expect(!(try await tmux.screen()).contains("ivo (you)"), "the terminal's own screen is back")

        kill(pid, SIGCONT)
        let resumed = try await tmux.waitFor("ivo (you)")
        #expect(resumed.contains("Leaderboard"), "\(resumed)")
        let redrawn = try await tmux.waitForPane { $0.alternateOn && !$0.cursorVisible }
        #expect(redrawn.alternateOn && !redrawn.cursorVisible, "resumed full-screen: \(redrawn)")
        let log = (try? String(contentsOfFile: home.path + "/screenmates.log", encoding: .utf8)) ?? ""
        try await quit(tmux)
        #expect(Self.processState(pid) == nil, "the dashboard ended; log:\n\(log.suffix(1500))")
    }

    @Test func theFirstRunAsksForANameAndChecksIt() async throws {
        let home = Binary.Home()
        let tmux = try await start(home, [])
        try await tmux.waitFor("Welcome to ScreenMates")
        // The apps step comes first, with the suggested apps picked: accept them.
        try await tmux.waitFor("Which apps")
        try await tmux.keys("Enter")
        try await tmux.waitFor("display name")
        try await tmux.keys("-l", "bad name")
        try await tmux.keys("Enter")
        // The refusal is marked with ✗ (the hint above the field also mentions underscores).
        let refused = try await tmux.waitFor("✗")
        #expect(refused.contains("remove") && refused.contains("space"), "\(refused)")
        #expect(!refused.contains("looks good"), "\(refused)")
        for _ in 0..<9 { try await tmux.keys("BSpace") }
        try await tmux.keys("-l", "ana_2")
        try await tmux.waitFor("looks good")
        try await tmux.keys("Enter")
        // The group step: not now.
        try await tmux.waitFor("Not now")
        try await tmux.keys("Down", "Down", "Enter")
        let dashboard = try await tmux.waitFor("ana_2 (you)")
        #expect(dashboard.contains("Leaderboard"))
        try await quit(tmux)
        let status = try await Binary.run(["status", "--home", home.path, "--json"])
        #expect(status.stdout.contains("\"ana_2\""))
    }

    @Test func aTerminalTooSmallSaysSoAndStillQuitsOnQ() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "eve"]).status == 0)
        let tmux = try await start(home, ["dashboard"])
        try await tmux.waitFor("eve (you)")
        try await tmux.resize(width: 50, height: 12)
        let small = try await tmux.waitFor("Terminal too small")
        #expect(small.contains("50×12"))
        try await tmux.resize(width: 80, height: 24)
        try await tmux.waitFor("eve (you)")
        try await tmux.resize(width: 40, height: 10)
        try await tmux.waitFor("Terminal too small")
        try await quit(tmux)
    }

    /// Esc closes the help screen by itself, with no key after it. How fast is the benchmark's
    /// business, not a test's: a bound on seconds here would fail on a loaded machine.
    @Test func helpOpensOnQuestionMarkAndEscGoesBack() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "fay"]).status == 0)
        let tmux = try await start(home, ["dashboard"])
        try await tmux.waitFor("fay (you)")
        try await tmux.keys("?")
        try await tmux.waitFor("The numbers")
        try await tmux.keys("Escape")
        let back = try await tmux.waitFor { $0.contains("fay (you)") && !$0.contains("The numbers") }
        #expect(back.contains("fay (you)") && !back.contains("The numbers"), "Esc did not close the help:\n\(back)")
        try await quit(tmux)
    }

    @Test func aNonUTF8LocaleFallsBackToASCII() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "gus"]).status == 0)
        let tmux = try await start(home, ["dashboard"], environment: ["LANG": "C", "LC_ALL": "C"])
        let screen = try await tmux.waitFor("gus (you)")
        #expect(screen.contains("+- Balance"), "\(screen)")
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII }, "\(screen)")
        try await quit(tmux)
    }

    @Test func noColorDrawsWithoutColours() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "hal"]).status == 0)
        let tmux = try await start(home, ["dashboard", "--theme", "dark"], environment: ["NO_COLOR": "1"])
        try await tmux.waitFor("hal (you)")
        let colored = try await tmux.screen(escapes: true)
        #expect(!Self.hasColour(colored), "a colour was drawn:\n\(colored)")
        try await quit(tmux)
        // And the same theme with colours does use them.
        let tmux2 = try await start(home, ["dashboard", "--theme", "dark"])
        try await tmux2.waitFor("hal (you)")
        #expect(Self.hasColour(try await tmux2.screen(escapes: true)))
        try await quit(tmux2)
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
