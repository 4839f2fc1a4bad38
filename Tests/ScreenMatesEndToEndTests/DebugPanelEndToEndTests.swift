import Foundation
import Testing

/// The debug panel's actions on the real binary in tmux: the end of the day, and clearing local
/// data after a confirmation.
@Suite struct DebugPanelEndToEndTests {
    private func status(_ home: Binary.Home) async throws -> [String: Any] {
        let result = try await Binary.run(["status", "--json", "--home", home.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// On a simulated clock the day ends at once: the reset notice comes, and commands started
    /// afterwards (`status`) follow the clock it moved to.
    /// The tasks' watchdog (`PoolWatchdog`) speaks on the panel: on a dashboard whose tasks run,
    /// it says they run. The panel names the machine the home drew, by the host's name.
    @Test func theDebugPanelSaysTheTasksRunAndTheMachine() async throws {
        let home = Binary.Home()
        let setup = try await Binary.run(["setup", "--home", home.path, "--name", "ana"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let tmux = try await Tmux()
        try await tmux.type("\(Binary.path) --home \(home.path) dashboard")
        _ = try await tmux.waitFor("q quit")
        try await tmux.openDebugPanel()
        let panel = try await tmux.waitFor("longest wait")
        #expect(panel.contains("tasks              running · never stalled · longest wait"), "\(panel)")
        #expect(panel.contains(/machine            [A-Za-z0-9._-]{1,32} · [0-9a-f]{8}/), "\(panel)")
        try await tmux.keys("Escape")
        try await tmux.keys("q")
    }

    @Test func theEndOfTheDayMovesTheSimulatedClockToTheReset() async throws {
        let home = Binary.Home()
        // The home begins on the simulated clock's day, an hour before the dashboard opens.
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--start-at", "2026-11-21T14:00"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let tmux = try await Tmux()
        try await tmux.type("\(Binary.path) --home \(home.path) dashboard --speed 1 --start-at 2026-11-21T15:00")
        _ = try await tmux.waitFor("q quit")
        #expect(try await status(home)["date"] as? String == "2026-11-21")
        try await tmux.openDebugPanel()
        try await tmux.keys("e")
        // The message comes at once; the panel's figures follow as the day's numbers are read
        // again (a moment later on a loaded machine).
        let screen = try await tmux.waitFor {
            $0.contains("2026-11-22 has begun") && $0.contains("today              2026-11-22")
        }
        #expect(screen.contains("The day is over: the clock moved to 00:00 and 2026-11-22 has begun."), "\(screen)")
        #expect(try await status(home)["date"] as? String == "2026-11-22", "status follows the clock it moved to")
        try await tmux.keys("Escape")
        let dashboard = try await tmux.waitFor("· A new day")
        #expect(dashboard.contains("Yesterday: 0 of 8 blocks, within the limit."), "\(dashboard)")
        try await tmux.keys("q")
    }

    /// The real clock cannot jump: the panel says why and what to do, and the day stays.
    @Test func theEndOfTheDayIsRefusedOnTheRealClock() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let before = try await status(home)["date"] as? String
        let tmux = try await Tmux()
        try await tmux.type("\(Binary.path) --home \(home.path) dashboard")
        _ = try await tmux.waitFor("q quit")
        try await tmux.openDebugPanel()
        try await tmux.keys("e")
        let screen = try await tmux.waitFor("cannot jump")
        #expect(screen.contains("--speed or --start-at"), "\(screen)")
        #expect(screen.contains("notices today      0 shown"), "no reset notice was recorded:\n\(screen)")
        // The real date, unless the real day ended meanwhile.
        let after = try await status(home)["date"] as? String
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        #expect(after == before || after == formatter.string(from: Date()), "the day stays")
        try await tmux.keys("q")
    }

    /// Desktop notices inside tmux: the panel names the sequence for the terminal tmux's client
    /// runs in and says that tmux drops it unless `allow-passthrough` is on; with it on, it
    /// says nothing more. (The terminal is kitty by the variable kitty sets for its windows,
    /// which a tmux server started there hands down.)
    @Test func insideTmuxThePanelSaysHowDesktopNoticesGoAndWhatTmuxNeeds() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let dashboard = "\(Binary.path) --home \(home.path) dashboard --desktop-notify"

        let closed = try await Tmux(environment: ["KITTY_WINDOW_ID": "1"])
        try await closed.type(dashboard)
        _ = try await closed.waitFor("q quit")
        try await closed.openDebugPanel()
        let said = try await closed.waitFor("desktop notices")
        #expect(said.contains("kitty's OSC 99 through tmux"), "\(said)")
        #expect(said.contains("allow-passthrough"), "\(said)")
        try await closed.keys("q")

        let open = try await Tmux(environment: ["KITTY_WINDOW_ID": "1"])
        try await open.type("tmux set-option -g allow-passthrough on && \(dashboard)")
        _ = try await open.waitFor("q quit")
        try await open.openDebugPanel()
        let quiet = try await open.waitFor("desktop notices")
        #expect(quiet.contains("kitty's OSC 99 through tmux"), "\(quiet)")
        #expect(!quiet.contains("allow-passthrough"), "\(quiet)")
        try await open.keys("q")
    }

    /// `x` asks first; any key but `y` keeps everything. `y` clears the events, the notices and
    /// the profile (keeping the user id), moves config.toml aside and starts the first run.
    @Test func clearingLocalDataAsksFirstThenStartsOver() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        #expect(try await Binary.run(["config", "set", "theme", "dark", "--home", home.path]).status == 0)
        let monitor = try await Binary.run(["monitor", "--home", home.path, "--rate", "max", "--count", "5", "--quiet"])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        #expect(try await Binary.run(["notify", "test", "--home", home.path]).status == 0)
        let before = try await status(home)
        let user = try #require(before["user"] as? [String: Any])
        #expect(before["eventsApplied"] as? Int == 5)

        let tmux = try await Tmux()
        try await tmux.type("\(Binary.path) --home \(home.path) dashboard")
        _ = try await tmux.waitFor("q quit")
        try await tmux.openDebugPanel()
        try await tmux.keys("x")
        // The question and its footer: waited for as one screen (a capture taken while the
        // terminal was still being written once showed the question over the panel's old footer).
        let asked = try await tmux.waitFor { $0.contains("Clear all local data?") && $0.contains("y clear it all") }
        #expect(asked.contains("Clear all local data?") && asked.contains("y clear it all"), "\(asked)")
        try await tmux.keys("n")
        _ = try await tmux.waitFor("Nothing was cleared.")
        #expect(try await status(home)["eventsApplied"] as? Int == 5, "a key but y keeps everything")

        try await tmux.keys("x")
        _ = try await tmux.waitFor("Clear all local data?")
        try await tmux.keys("y")
        _ = try await tmux.waitFor("Welcome to ScreenMates")
        let after = try await status(home)
        #expect(after["eventsApplied"] as? Int == 0)
        #expect((after["notifications"] as? [Any])?.isEmpty == true)
        let userAfter = try #require(after["user"] as? [String: Any])
        #expect(userAfter["id"] as? String == user["id"] as? String, "the user id stays")
        #expect(userAfter["name"] is NSNull, "the name is gone: \(userAfter)")
        let files = try FileManager.default.contentsOfDirectory(atPath: home.path)
        let aside = try #require(files.first { $0.hasPrefix("config.toml.cleared-") }, "\(files)")
        let old = try String(contentsOfFile: home.path + "/" + aside, encoding: .utf8)
        #expect(old.contains("theme = \"dark\""), "\(old)")
        let fresh = try String(contentsOfFile: home.path + "/config.toml", encoding: .utf8)
        #expect(fresh.contains("theme = \"terminal\""), "a fresh config file with the defaults:\n\(fresh)")
        try await tmux.keys("Escape")
    }
}

extension Tmux {
    /// Opens the debug panel of the dashboard on screen, and waits until its keys are shown.
    func openDebugPanel() async throws {
        try await keys("D")
        _ = try await waitFor("x clear local data")
    }
}
