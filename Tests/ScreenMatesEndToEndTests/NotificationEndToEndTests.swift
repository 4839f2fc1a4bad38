import Foundation
import ScreenMatesCore
import ScreenMatesTestSupport
import Testing

/// Notices on screen, driven by the real binary in tmux with a fast clock.
@Suite(.timeLimit(.minutes(5))) struct NotificationEndToEndTests {
    private func status(_ home: Binary.Home) async throws -> [String: Any] {
        let result = try await Binary.run(["status", "--json", "--home", home.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Writes vice blocks from midnight into `home` until today holds `total` of them, through the
    /// real monitor (following the open dashboard's clock); blocks already written are the same
    /// events again (same seed, same ids) and count once.
    private func viceBlocks(upTo total: Int, in home: Binary.Home) async throws {
        let scenario = home.path + "/vice.json"
        if !FileManager.default.fileExists(atPath: scenario) {
            try """
            { "name": "vice", "summary": "vice blocks from midnight",
              "steps": [ { "at": "00:00", "app": "tiktok", "category": "vice", "blocks": 12 } ] }
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        }
        let monitor = try await Binary.run(
            [
                "monitor", "--home", home.path, "--scenario", scenario, "--rate", "max", "--count", "\(total)",
                "--seed", "3",
            ])
        #expect(monitor.status == 0, "\(monitor.stderr)")
    }

    /// Usage crosses 75 %, 90 % and the limit one step at a time (the next blocks are written only
    /// once a toast came, so no machine is too slow to see each on its own): the toasts come in
    /// order; the log lists each once; a restart repeats none; `status --json` lists them.
    @Test func thresholdToastsAppearOnceInOrderAndARestartRepeatsNone() async throws {
        let home = Binary.Home()
        // The home begins on the day the simulated clock shows.
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--start-at", "2026-11-21T17:00"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let tmux = try await Tmux()
        try await tmux.type("\(Binary.path) --home \(home.path) dashboard --speed 1 --start-at 2026-11-21T18:00")
        _ = try await tmux.waitFor("q quit")
        // 6, 8 and 9 of 8 blocks: 75 %, 90 % (at the limit) and over.
        let titles = ["75 % of today's limit", "90 % of today's limit", "Over today's limit"]
        var seen: [String] = []
        for (total, title) in zip([6, 8, 9], titles) {
            try await viceBlocks(upTo: total, in: home)
            _ = try await tmux.waitFor(timeout: 60) { screen in
                // The toast's title line: the mark and the title inside its box.
                for title in titles where !seen.contains(title) && screen.contains("! \(title)") {
                    seen.append(title)
                }
                return seen.contains(title)
            }
        }
        #expect(seen == titles)
        try await tmux.keys("n")
        // The log replaces the dashboard; a capture taken while the terminal is still drawing can
        // hold rows of both, so wait (a while) for the log as it settles, then check it.
        func occurrences(_ title: String, in text: String) -> Int { text.components(separatedBy: title).count - 1 }
        let log = try await tmux.waitFor { screen in
            screen.contains("Notices ·") && titles.allSatisfy { occurrences($0, in: screen) == 1 }
        }
        for title in titles {
            #expect(occurrences(title, in: log) == 1, "\(title) once in the log:\n\(log)")
        }
        // Where the dashboard's clock is now (it is published while the dashboard runs): a restart
        // starts a little later on the same day, after everything the monitor wrote.
        let clockNow = try #require((try await status(home))["now"] as? String)
        try await tmux.keys("q")
        let calendar = DayCalendar(timeZone: .current)
        let restartAt = try #require(TimeFormat.parseInstant(clockNow, timeZone: .current)).addingTimeInterval(20 * 60)
        try #require(
            calendar.day(containing: restartAt).iso8601 == "2026-11-21",
            "the clock ran on to \(clockNow): no time is left for a restart on the same day")
        _ = try await tmux.waitFor { !$0.contains("Notices ·") }

        // A restart on the same day's clock shows none of them again.
        let again = try await Tmux()
        try await again.type(
            "\(Binary.path) --home \(home.path) dashboard --speed 1 --start-at \(TimeFormat.iso8601(restartAt))")
        let screen = try await again.waitFor("q quit")
        try await Task.sleep(for: .seconds(3))
        let later = try await again.screen()
        for title in titles { #expect(!later.contains("! \(title)"), "no repeated toast:\n\(screen)\n\(later)") }
        // The debug panel ends the day: the reset notice tells how the day went.
        try await again.openDebugPanel()
        try await again.keys("e")
        _ = try await again.waitFor("2026-11-22 has begun")
        // Toasts show on the dashboard; on the panel they wait.
        try await again.keys("Escape")
        let reset = try await again.waitFor("· A new day")
        #expect(reset.contains("Yesterday: "), "\(reset)")
        #expect(reset.contains("over the limit"), "\(reset)")
        try await again.keys("q")
        _ = try await again.waitFor { !$0.contains("q quit") }
        // A restart in the new day does not repeat the reset notice either.
        let third = try await Tmux()
        try await third.type("\(Binary.path) --home \(home.path) dashboard --speed 1 --start-at 2026-11-22T00:30")
        _ = try await third.waitFor("q quit")
        try await Task.sleep(for: .seconds(3))
        #expect(!(try await third.screen()).contains("· A new day"), "the reset notice is not toasted again")
        try await third.keys("q")
        _ = try await third.waitFor { !$0.contains("q quit") }
        let json = try await status(home)
        let kinds = (json["notifications"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        #expect(kinds.filter { $0.hasPrefix("limit-") }.sorted() == ["limit-75", "limit-90", "limit-over"])
        #expect(kinds.filter { $0 == "daily-reset" }.count == 1, "\(kinds)")
    }

    @Test func aTestNoticeFromTheCommandLineShowsOnTheOpenDashboard() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let tmux = try await Tmux()
        try await tmux.type("\(Binary.path) --home \(home.path) dashboard")
        _ = try await tmux.waitFor("q quit")
        let sent = try await Binary.run(["notify", "test", "--home", home.path])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("Sent a test notice"))
        let screen = try await tmux.waitFor("Test notice")
        #expect(screen.contains("Notifications work."))
        try await tmux.keys("q")
    }

    /// Two dashboards open on one home: each notice is toasted by one of them, never both. The
    /// first runs a simulated clock (so that midnight on the real clock cannot split the day);
    /// the second and the monitor follow it.
    @Test func twoDashboardsOnOneHomeShowEachNoticeOnceBetweenThem() async throws {
        let home = Binary.Home()
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--start-at", "2026-11-21T09:00"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let screens = [try await Tmux(), try await Tmux()]
        for (index, screen) in screens.enumerated() {
            let clock = index == 0 ? " --speed 1 --start-at 2026-11-21T10:00" : ""
            try await screen.type("\(Binary.path) --home \(home.path) dashboard\(clock)")
            _ = try await screen.waitFor("q quit")
        }
        // 6, 8 and 9 of 8 blocks, a step at a time: each crossing on its own however slow the
        // machine. A dashboard shows a toast for 5 s: after each one comes, both screens are
        // watched 6 s more, so that a second showing on the other screen is seen.
        let titles = ["75 % of today's limit", "90 % of today's limit", "Over today's limit"]
        var seenOn: [String: Set<Int>] = [:]
        let clock = ContinuousClock()
        for (total, title) in zip([6, 8, 9], titles) {
            try await viceBlocks(upTo: total, in: home)
            var deadline = clock.now + .seconds(60)
            var came = false
            while clock.now < deadline {
                for (index, screen) in screens.enumerated() {
                    let text = try await screen.screen()
                    for title in titles where text.contains("! \(title)") { seenOn[title, default: []].insert(index) }
                }
                if !came && seenOn[title] != nil {
                    came = true
                    deadline = min(deadline, clock.now + .seconds(6))
                }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        for title in titles {
            #expect(seenOn[title]?.count == 1, "\(title) toasted on screens \(seenOn[title] ?? [])")
        }
        for screen in screens { try await screen.keys("q") }
    }
}
