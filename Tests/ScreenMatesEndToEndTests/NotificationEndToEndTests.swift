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

    /// The evening binge crosses 75 %, 90 % and the limit after 18:00: at ×300 the toasts come
    /// within seconds, in order; the log lists each once; a restart repeats none; `status --json`
    /// lists them.
    @Test func thresholdToastsAppearOnceInOrderAndARestartRepeatsNone() async throws {
        let home = Binary.Home()
        // The home begins on the day the simulated clock shows.
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--start-at", "2026-11-21T17:00"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let tmux = try await Tmux()
        let command =
            "\(Binary.path) --home \(home.path) dashboard --demo --scenario evening-binge --speed 300 --start-at 2026-11-21T18:00"
        try await tmux.type(command)
        // At ×300 the crossings come 12 s apart or more (at ×600 a loaded machine once took them
        // as one jump), and the 60 s wait ends at 23:00 on the app clock, before the day does.
        var seen: [String] = []
        let titles = ["75 % of today's limit", "90 % of today's limit", "Over today's limit"]
        _ = try await tmux.waitFor(timeout: 60) { screen in
            // The toast's title line: the mark and the title inside its box.
            for title in titles where !seen.contains(title) && screen.contains("! \(title)") {
                seen.append(title)
            }
            return seen.count == titles.count
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
        // Where the demo's clock is now (it is published while the dashboard runs): a restart
        // starts a little later on the same day, after everything the demo wrote.
        let demoNow = try #require((try await status(home))["now"] as? String)
        try await tmux.keys("q")
        let calendar = DayCalendar(timeZone: .current)
        let restartAt = try #require(TimeFormat.parseInstant(demoNow, timeZone: .current)).addingTimeInterval(20 * 60)
        try #require(
            calendar.day(containing: restartAt).iso8601 == "2026-11-21",
            "the demo ran on to \(demoNow): no time is left for a restart on the same day")
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
        // Blocks one by one from midnight, two seconds apart (time for two dashboards to see each
        // on a busy machine), so 75 %, 90 % and over are each crossed on their own.
        let scenario = home.path + "/vice.json"
        try """
        { "name": "vice", "summary": "vice blocks from midnight",
          "steps": [ { "at": "00:00", "app": "tiktok", "category": "vice", "blocks": 9 } ] }
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let monitor = try await SpawnedProcess(
            Binary.path,
            ["monitor", "--home", home.path, "--scenario", scenario, "--rate", "0.5", "--count", "9", "--seed", "3"])
        let titles = ["75 % of today's limit", "90 % of today's limit", "Over today's limit"]
        var seenOn: [String: Set<Int>] = [:]
        // A dashboard shows its toasts one after another, 5 s each: when one dashboard takes all
        // three, the last comes some 15 s after the first. Watch until all three have come (a
        // generous deadline), and 6 s more (longer than a toast) so that a second showing on the
        // other screen is seen.
        let clock = ContinuousClock()
        var deadline = clock.now + .seconds(120)
        var allSeen = false
        while clock.now < deadline {
            if !allSeen && titles.allSatisfy({ seenOn[$0] != nil }) {
                allSeen = true
                deadline = min(deadline, clock.now + .seconds(6))
            }
            for (index, screen) in screens.enumerated() {
                let text = try await screen.screen()
                for title in titles where text.contains("! \(title)") { seenOn[title, default: []].insert(index) }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(await monitor.wait() == 0, "\(monitor.standardError)")
        for title in titles {
            #expect(seenOn[title]?.count == 1, "\(title) toasted on screens \(seenOn[title] ?? [])")
        }
        for screen in screens { try await screen.keys("q") }
    }
}
