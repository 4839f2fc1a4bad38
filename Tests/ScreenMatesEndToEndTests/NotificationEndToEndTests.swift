import Foundation
import Testing

/// Notices on screen, driven by the real binary in tmux with a fast clock.
@Suite struct NotificationEndToEndTests {
    /// The evening binge crosses 75 %, 90 % and the limit after 18:00: at ×300 the toasts come
    /// within seconds, in order; the log lists each once; a restart repeats none; `status --json`
    /// lists them.
    @Test func thresholdToastsAppearOnceInOrderAndARestartRepeatsNone() throws {
        let home = Binary.Home()
        #expect(try Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let tmux = try Tmux()
        let command =
            "\(Binary.path) --home \(home.path) dashboard --demo --scenario evening-binge --speed 300 --start-at 2026-11-21T18:00"
        try tmux.type(command)
        // At ×300 the crossings come 12 s apart or more (at ×600 a loaded machine once took them
        // as one jump), and the 60 s wait ends at 23:00 on the app clock, before the day does.
        var seen: [String] = []
        let titles = ["75 % of today's limit", "90 % of today's limit", "Over today's limit"]
        _ = try tmux.waitFor(timeout: 60) { screen in
            // The toast's title line: the mark and the title inside its box.
            for title in titles where !seen.contains(title) && screen.contains("! \(title)") {
                seen.append(title)
            }
            return seen.count == titles.count
        }
        #expect(seen == titles)
        try tmux.keys("n")
        // The log replaces the dashboard; a capture taken while the terminal is still drawing can
        // hold rows of both, so wait (a while) for the log as it settles, then check it.
        func occurrences(_ title: String, in text: String) -> Int { text.components(separatedBy: title).count - 1 }
        let settled = try? tmux.waitFor { screen in
            screen.contains("Notices ·") && titles.allSatisfy { occurrences($0, in: screen) == 1 }
        }
        let log = try settled ?? tmux.screen()
        for title in titles {
            #expect(occurrences(title, in: log) == 1, "\(title) once in the log:\n\(log)")
        }
        try tmux.keys("q")
        // A restart on the same day's clock shows none of them again.
        let again = try Tmux()
        try again.type(
            "\(Binary.path) --home \(home.path) dashboard --speed 1 --start-at 2026-11-21T22:30")
        let screen = try again.waitFor("q quit")
        Thread.sleep(forTimeInterval: 1.5)
        let later = try again.screen()
        for title in titles { #expect(!later.contains("! \(title)"), "no repeated toast:\n\(screen)") }
        // The debug panel ends the day: the reset notice tells how the day went.
        try again.openDebugPanel()
        try again.keys("e")
        _ = try again.waitFor("2026-11-22 has begun")
        // Toasts show on the dashboard; on the panel they wait.
        try again.keys("Escape")
        let reset = try again.waitFor("· A new day")
        #expect(reset.contains("Yesterday: "), "\(reset)")
        #expect(reset.contains("over the limit"), "\(reset)")
        try again.keys("q")
        // A restart in the new day does not repeat the reset notice either.
        let third = try Tmux()
        try third.type("\(Binary.path) --home \(home.path) dashboard --speed 1 --start-at 2026-11-22T00:30")
        _ = try third.waitFor("q quit")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(!(try third.screen()).contains("· A new day"), "the reset notice is not toasted again")
        try third.keys("q")
        let status = try Binary.run(["status", "--json", "--home", home.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let kinds = (json["notifications"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        #expect(kinds.filter { $0.hasPrefix("limit-") }.sorted() == ["limit-75", "limit-90", "limit-over"])
        #expect(kinds.filter { $0 == "daily-reset" }.count == 1, "\(kinds)")
    }

    @Test func aTestNoticeFromTheCommandLineShowsOnTheOpenDashboard() throws {
        let home = Binary.Home()
        #expect(try Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let tmux = try Tmux()
        try tmux.type("\(Binary.path) --home \(home.path) dashboard")
        _ = try tmux.waitFor("q quit")
        let sent = try Binary.run(["notify", "test", "--home", home.path])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("Sent a test notice"))
        let screen = try tmux.waitFor("Test notice", timeout: 3)
        #expect(screen.contains("Notifications work."))
        try tmux.keys("q")
    }

    /// Two dashboards open on one home: each notice is toasted by one of them, never both.
    @Test func twoDashboardsOnOneHomeShowEachNoticeOnceBetweenThem() throws {
        let home = Binary.Home()
        #expect(try Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let screens = [try Tmux(), try Tmux()]
        for screen in screens {
            try screen.type("\(Binary.path) --home \(home.path) dashboard")
            _ = try screen.waitFor("q quit")
        }
        // Blocks one by one from midnight, so 75 %, 90 % and over are each crossed on their own.
        let scenario = home.path + "/vice.json"
        try """
        { "name": "vice", "summary": "vice blocks from midnight",
          "steps": [ { "at": "00:00", "app": "tiktok", "category": "vice", "blocks": 9 } ] }
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let monitor = try SpawnedProcess(
            Binary.path,
            ["monitor", "--home", home.path, "--scenario", scenario, "--rate", "1.5", "--count", "9", "--seed", "3"])
        let titles = ["75 % of today's limit", "90 % of today's limit", "Over today's limit"]
        var seenOn: [String: Set<Int>] = [:]
        // A dashboard shows its toasts one after another, 5 s each: when one dashboard takes all
        // three, the last comes some 15 s after the first. Watch until all three have come, and
        // 6 s more (longer than a toast) so that a second showing on the other screen is seen.
        var deadline = Date().addingTimeInterval(30)
        var allSeen = false
        while Date() < deadline {
            if !allSeen && titles.allSatisfy({ seenOn[$0] != nil }) {
                allSeen = true
                deadline = min(deadline, Date().addingTimeInterval(6))
            }
            for (index, screen) in screens.enumerated() {
                let text = try screen.screen()
                for title in titles where text.contains("! \(title)") { seenOn[title, default: []].insert(index) }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(monitor.wait() == 0)
        for title in titles {
            #expect(seenOn[title]?.count == 1, "\(title) toasted on screens \(seenOn[title] ?? [])")
        }
        for screen in screens { try screen.keys("q") }
    }
}
