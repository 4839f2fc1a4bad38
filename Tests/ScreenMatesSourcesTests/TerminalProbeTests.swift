import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import Testing

/// `--source terminal` against a real tmux server: panes running different programs, a client
/// attached from another tmux's pane, samples driven on an injected clock.
@Suite(.enabled(if: TmuxServer.available, "tmux is not installed"))
struct TerminalProbeTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)

    /// A session `work` with two panes, `cat` (0) and `sleep` (1, active), nobody attached.
    static func server() throws -> TmuxServer {
        let server = TmuxServer()
        try server.run(["new-session", "-d", "-s", "work", "-x", "80", "-y", "24", "cat"])
        try server.run(["split-window", "-t", "work", "sleep 1000"])
        return server
    }

    /// Attaches a client to `server` from a pane of another tmux server; returns that server.
    static func attach(_ server: TmuxServer) async throws -> TmuxServer {
        let outer = TmuxServer()
        try outer.run([
            "new-session", "-d", "-x", "100", "-y", "30", "\(TmuxServer.tmux) -L \(server.socket) attach -t work",
        ])
        for _ in 0..<200 where try server.run(["list-clients"]).isEmpty {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(!(try server.run(["list-clients"])).isEmpty, "the client did not attach")
        return outer
    }

    static func probe(_ server: TmuxServer) -> TerminalProbe {
        var probe = TerminalProbe(tmux: TmuxServer.tmux, server: ["-L", server.socket], followsTerminals: false)
        probe.refreshInterval = 0
        return probe
    }

    @Test func aDetachedSessionCountsNothing() throws {
        let server = try Self.server()
        var probe = Self.probe(server)
        let sample = try probe.sample(wallClock: Date())
        #expect(sample.app == nil)
        // Nor through the user's terminals: a pane is counted only through tmux.
        let panes = try server.run(["list-panes", "-a", "-F", "#{pane_tty}"]).split(separator: "\n").map(String.init)
        #expect(panes.count == 2)
        #expect(Set(panes).isDisjoint(with: TerminalProbe.userTerminalPaths()))
    }

    @Test func theActivePaneOfTheAttachedClientHasTheTimeAndSwitchingPanesMovesIt() async throws {
        let server = try Self.server()
        let outer = try await Self.attach(server)
        var probe = Self.probe(server)
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        // Driven on the injected clock: one sample a "second", whatever the real time takes.
        for second in 0...130 {
            timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
        }
        #expect(probe.following == "tmux's active pane")
        try server.run(["select-pane", "-t", "work:0.0"])
        for second in 131...200 {
            timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
        }
        let sleep = TrackedApp(id: "sleep", name: "sleep", bundleID: "s", category: .vice)
        let cat = TrackedApp(id: "cat", name: "cat", bundleID: "c", category: .productive)
        let deriver = BlockDeriver(
            source: "terminal", host: "desk", blockSeconds: 60, calendar: Self.calendar,
            matcher: AppMatcher(apps: [sleep, cat], rules: []))
        let usage = deriver.derive(
            timeline.timeline, day: Self.calendar.day(containing: Self.start),
            until: Self.start.addingTimeInterval(3600))
        #expect(usage.trackedMilliseconds == ["sleep": 131_000, "cat": 69_000])
        #expect(usage.events.map(\.appID) == ["sleep", "sleep", "cat"])

        // Detach the client: nothing counts from then on.
        try outer.run(["kill-server"])
        for _ in 0..<200 where !(try server.run(["list-clients"])).isEmpty {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try probe.sample(wallClock: Date()).app == nil)
    }

    @Test func inputOlderThanTheThresholdIsIdle() async throws {
        let server = try Self.server()
        let outer = try await Self.attach(server)
        var probe = Self.probe(server)
        let fresh = try probe.sample(wallClock: Date())
        #expect(fresh.app == "sleep")
        let idle = try #require(fresh.idleSeconds)
        // Ten minutes on, with no input since: idle by then, whatever the real time.
        let later = try probe.sample(wallClock: Date().addingTimeInterval(600))
        #expect(try #require(later.idleSeconds) >= idle + 599)
        let timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        #expect(timeline.isActive(fresh) && !timeline.isActive(later))
        _ = outer
    }
}
