import Foundation
import Testing

/// Every screen of the real binary, in tmux at the smallest size the dashboard accepts (60×16)
/// and at 80×24, read as a person would: nothing the screen says is cut, and a screen taller
/// than the terminal scrolls, with a mark saying so.
///
/// Each home is set up on the simulated day the dashboard then opens on (2026-11-21, set up at
/// 14:00 and opened at 14:30), so nothing depends on today's date or the time of day.
@Suite(.serialized) struct SmallScreenEndToEndTests {
    let binary = Binary.path
    static let setUpAt = "2026-11-21T14:00"
    static let openAt = "2026-11-21T14:30"
    static let sizes = [(60, 16), (80, 24)]

    /// A home set up at `setUpAt`; with `usage`, 40 seeded blocks written then (more vice blocks
    /// than the goal of 8); with `group`, in a group of its own. Returns the home and the code.
    private func home(usage: Bool, group: Bool) async throws -> (Binary.Home, String?) {
        let home = Binary.Home()
        let setup = try await Binary.run(["setup", "--home", home.path, "--name", "ana", "--start-at", Self.setUpAt])
        try #require(setup.status == 0, "setup: \(setup.stderr)")
        if usage {
            let monitor = try await Binary.run([
                "monitor", "--home", home.path, "--seed", "1", "--count", "40", "--rate", "max", "--quiet",
                "--start-at", Self.setUpAt,
            ])
            try #require(monitor.status == 0, "monitor: \(monitor.stderr)")
        }
        guard group else { return (home, nil) }
        let created = try await Binary.run(["group", "create", "--home", home.path])
        try #require(created.status == 0, "group create: \(created.stderr)")
        let code = try #require(
            created.stdout.components(separatedBy: "Share the code: ").last?.prefix(6), "\(created.stdout)")
        return (home, String(code))
    }

    /// The dashboard of `home` in a `width` × `height` pane, once it has drawn.
    private func open(_ home: Binary.Home, width: Int, height: Int) async throws -> Tmux {
        let tmux = try await Tmux(
            width: width, height: height,
            running: [binary, "--home", home.path, "dashboard", "--start-at", Self.openAt])
        _ = try await tmux.waitFor("resets in")
        return tmux
    }

    /// The screen's rows, `height` of them (tmux leaves trailing blank rows out).
    private func rows(_ screen: String, height: Int) -> [String] {
        var rows = screen.components(separatedBy: "\n")
        while rows.count < height { rows.append("") }
        return Array(rows.prefix(height))
    }

    private func footer(_ screen: String, height: Int) -> String { rows(screen, height: height)[height - 1] }

    /// Waits until the screen holds `text` and its footer `key` (a screen drawn whole, not one
    /// caught half-way through its drawing).
    @discardableResult
    private func waitFor(
        _ tmux: Tmux, _ text: String, footer key: String = "esc back", height: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let screen = try await tmux.waitFor { $0.contains(text) && self.footer($0, height: height).contains(key) }
        if !screen.contains(text) || !footer(screen, height: height).contains(key) {
            Issue.record("\"\(text)\" with \"\(key)\" below did not appear:\n\(screen)", sourceLocation: sourceLocation)
        }
        return screen
    }

    /// The words of a screen in reading order, box edges left out: a wrapped sentence reads as
    /// one line.
    private func words(_ screen: String) -> String {
        screen.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(arguments: sizes)
    func theHeaderShowsTheGroupCode(width: Int, height: Int) async throws {
        let (home, code) = try await home(usage: false, group: true)
        let code6 = try #require(code)
        let tmux = try await open(home, width: width, height: height)
        let screen = try await tmux.waitFor("ana · \(code6)")
        let header = rows(screen, height: height)[0]
        #expect(header.hasPrefix(" ana · \(code6) ") || header.contains("  ana · \(code6) "), "\(header)")
        #expect(header.contains("14:3") && header.contains("resets in"), "\(header)")
        // On the history and settings screens too.
        for (key, title) in [("h", "Totals"), ("s", "Settings")] {
            try await tmux.keys(key)
            let other = try await waitFor(tmux, title, height: height)
            #expect(rows(other, height: height)[0].contains("ana · \(code6)"), "\(key):\n\(other)")
            try await tmux.keys("Escape")
            try await waitFor(tmux, "Leaderboard", footer: "? help", height: height)
        }
        try await tmux.keys("q")
    }

    /// The history reads whole; today, not over yet, is neither kept nor over the limit.
    @Test(arguments: sizes)
    func historyReadsWholeAndTodayIsNotCountedYet(width: Int, height: Int) async throws {
        for usage in [false, true] {
            let (home, _) = try await home(usage: usage, group: false)
            let tmux = try await open(home, width: width, height: height)
            try await tmux.keys("h")
            let screen = try await waitFor(tmux, "Totals", height: height)
            let text = words(screen)
            // The totals' labels whole, under their columns' headings.
            for label in ["blocks", "spent", "earned", "over", "week", "month", "current", "best"] {
                #expect(text.contains(" \(label) "), "\(label) cut at \(width)×\(height):\n\(screen)")
            }
            #expect(text.contains("today \(usage ? "broken" : "on track")"), "\(screen)")
            #expect(text.contains("none yet"), "\(screen)")
            #expect(!text.contains("of 1"), "today counted as a finished day:\n\(screen)")
            #expect(footer(screen, height: height).contains("esc back"), "\(screen)")
            #expect(!footer(screen, height: height).contains("h history"), "\(screen)")
            try await tmux.keys("q")
        }
    }

    /// The debug panel scrolls where its facts do not fit, with a mark on the box's edge, and
    /// every fact reads whole (a long path goes on under itself); its footer keeps every key.
    @Test func debugPanelScrollsAndKeepsEveryKey() async throws {
        let (home, _) = try await home(usage: true, group: true)
        let tmux = try await open(home, width: 80, height: 24)
        try await tmux.keys("D")
        let wide = try await waitFor(tmux, "user id", height: 24)
        let todayRow = try #require(rows(wide, height: 24).first { $0.contains("│ today ") }, "\(wide)")
        let reset = try #require(
            todayRow.components(separatedBy: "resets ").last?.split(separator: " ").first.map(String.init),
            "\(todayRow)")
        #expect(reset.count >= 20, "the reset instant: \(reset)")
        for (width, height) in Self.sizes.reversed() {
            try await tmux.resize(width: width, height: height)
            let top = try await waitFor(tmux, "user id", height: height)
            #expect(top.contains("↓/j"), "the home's long paths do not fit at \(width)×\(height):\n\(top)")
            #expect(top.contains("more ─┘"), "the mark is on the box's edge:\n\(top)")
            let keys = footer(top, height: height)
            for hint in ["q quit", "t test", "u sync", "e end", "x clear", "esc back"] {
                #expect(keys.contains(hint), "\(hint) missing at \(width)×\(height): \(keys)")
            }
            var seen = [top]
            for _ in 0..<30 {
                try await tmux.keys("j")
                seen.append(try await tmux.screen())
            }
            let end = try await tmux.waitFor { $0.contains("limit-over") && $0.contains("↑/k") }
            #expect(!end.contains("↓/j"), "at the end, nothing is below:\n\(end)")
            seen.append(end)
            // Every fact whole: the reset instant on a row, the home's path once its pieces are
            // put together.
            #expect(seen.contains { $0.contains(reset) }, "the reset instant \(reset) is never whole")
            let joined = seen.joined().replacingOccurrences(of: "│", with: "").filter { !$0.isWhitespace }
            #expect(joined.contains(home.path + "/group-store.sqlite"), "the path is cut:\n\(seen.joined())")
            for _ in 0..<30 { try await tmux.keys("k") }
            let back = try await tmux.waitFor { $0.contains("user id") && !$0.contains("↑/k") }
            #expect(back.contains("↓/j"), "\(back)")
        }
        try await tmux.keys("q")
    }

    /// Out of a group, the group screen offers no leave; on it, it does not offer itself; its
    /// footer keeps `esc back` at 60 columns. Creating a group there shows the code on the
    /// header at once.
    @Test(arguments: sizes)
    func theGroupScreenOffersWhatItCanDo(width: Int, height: Int) async throws {
        let (home, _) = try await home(usage: false, group: false)
        let tmux = try await open(home, width: width, height: height)
        try await tmux.keys("g")
        let none = try await waitFor(tmux, "You are not in a group.", height: height)
        var keys = footer(none, height: height)
        #expect(!keys.contains("leave"), "\(keys)")
        #expect(!keys.contains("g group"), "\(keys)")
        #expect(keys.contains("c create") && keys.contains("j join") && keys.contains("esc back"), "\(keys)")
        try await tmux.keys("c")
        _ = try await tmux.waitFor("Daily goal of the new group")
        try await tmux.keys("Enter")
        // The whole footer is waited for: at 60 columns it ends in the screen's last cell, which
        // ncurses writes in two steps (the last character, then the one before it inserted), and
        // a capture between them reads `esc bak`.
        let inGroup = try await waitFor(tmux, "Friends join with", footer: "l leave  esc back", height: height)
        keys = footer(inGroup, height: height)
        #expect(keys.contains("l leave") && keys.contains("esc back"), "\(keys)\n\(inGroup)")
        #expect(!keys.contains("g group"), "\(keys)")
        let code = try #require(
            inGroup.components(separatedBy: "group join ").last?.prefix(6).description, "\(inGroup)")
        try await tmux.keys("Escape")
        let dashboard = try await waitFor(tmux, "Leaderboard", footer: "? help", height: height)
        #expect(rows(dashboard, height: height)[0].contains("ana · \(code)"), "\(dashboard)")
        try await tmux.keys("q")
    }

    /// The help lists the settings screen's keys; where it is taller than the screen, it says
    /// so and scrolls.
    @Test(arguments: sizes)
    func helpListsTheSettingsKeys(width: Int, height: Int) async throws {
        let (home, _) = try await home(usage: false, group: false)
        let tmux = try await open(home, width: width, height: height)
        try await tmux.keys("?")
        var seen = try await waitFor(tmux, "Help", height: height)
        #expect(seen.contains("↓/j more"), "\(seen)")
        for _ in 0..<25 {
            try await tmux.keys("j")
            seen += try await tmux.screen()
        }
        let end = try await tmux.waitFor("↑/k back")
        #expect(end.contains("Leaderboard"), "the last explanation:\n\(end)")
        for text in ["Settings screen (s)", "next setting", "previous setting", "next value", "previous value"] {
            #expect(seen.contains(text), "\(text) missing at \(width)×\(height)")
        }
        // Esc and the next key apart: sent together, a terminal reads them as alt-s.
        try await tmux.keys("Escape")
        try await waitFor(tmux, "Leaderboard", footer: "? help", height: height)
        try await tmux.keys("s")
        let settings = try await waitFor(tmux, "Settings", height: height)
        let keys = footer(settings, height: height)
        #expect(keys.contains("esc back") && !keys.contains("s settings"), "\(keys)")
        try await tmux.keys("q")
    }

    /// The notices log wraps a notice too long for its row instead of cutting it.
    @Test(arguments: sizes)
    func theNoticesLogReadsWhole(width: Int, height: Int) async throws {
        let (home, _) = try await home(usage: true, group: false)
        let tmux = try await open(home, width: width, height: height)
        try await tmux.keys("n")
        let screen = try await waitFor(tmux, "Over today's limit", height: height)
        #expect(
            words(screen).contains("today's streak is broken. Tomorrow starts afresh."),
            "cut at \(width)×\(height):\n\(screen)")
        #expect(!screen.contains("…"), "\(screen)")
        try await tmux.keys("q")
    }
}
