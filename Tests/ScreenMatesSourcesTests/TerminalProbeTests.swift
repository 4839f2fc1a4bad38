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
    static func session(on server: TmuxServer) async throws {
        try await server.run(["new-session", "-d", "-s", "work", "-x", "80", "-y", "24", "cat"])
        try await server.run(["split-window", "-t", "work", "sleep 1000"])
    }

    /// Attaches a client to `server` from a pane of `outer`.
    static func attach(_ server: TmuxServer, from outer: TmuxServer) async throws {
        try await outer.run([
            "new-session", "-d", "-x", "100", "-y", "30", "\(TmuxServer.tmux) -L \(server.socket) attach -t work",
        ])
        for _ in 0..<200 where try await server.run(["list-clients"]).isEmpty {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(!(try await server.run(["list-clients"])).isEmpty, "the client did not attach")
    }

    static func probe(_ server: TmuxServer) -> TerminalProbe {
        var probe = TerminalProbe(
            tmux: TmuxServer.tmux, server: ["-L", server.socket], followsTerminals: false, environment: [:])
        probe.refreshInterval = 0
        return probe
    }

    @Test func aDetachedSessionCountsNothing() async throws {
        try await TmuxServer.with { servers in
            let server = servers[0]
            try await Self.session(on: server)
            var probe = Self.probe(server)
            let sample = try await probe.sample(wallClock: Date())
            #expect(sample.app == nil)
            // Nor through the user's terminals: a pane is counted only through tmux.
            let panes = try await server.run(["list-panes", "-a", "-F", "#{pane_tty}"]).split(separator: "\n")
                .map(String.init)
            #expect(panes.count == 2)
            #expect(Set(panes).isDisjoint(with: TerminalProbe.userTerminalPaths()))
        }
    }

    @Test func theActivePaneOfTheAttachedClientHasTheTimeAndSwitchingPanesMovesIt() async throws {
        try await TmuxServer.with(2) { servers in
            let (server, outer) = (servers[0], servers[1])
            try await Self.session(on: server)
            try await Self.attach(server, from: outer)
            var probe = Self.probe(server)
            var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
            // Driven on the injected clock: one sample a "second", whatever the real time takes.
            for second in 0...130 {
                timeline.add(
                    try await probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            #expect(probe.following == "tmux's active pane")
            try await server.run(["select-pane", "-t", "work:0.0"])
            for second in 131...200 {
                timeline.add(
                    try await probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
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
            try await outer.run(["kill-server"])
            for _ in 0..<200 where !(try await server.run(["list-clients"])).isEmpty {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await probe.sample(wallClock: Date()).app == nil)
        }
    }

    @Test func typingIntoTheActivePaneAsksTmuxNothingAndAKeyTmuxKeepsDoes() async throws {
        try await TmuxServer.with(2) { servers in
            let (server, outer) = (servers[0], servers[1])
            try await Self.session(on: server)
            try await Self.attach(server, from: outer)
            try await server.run(["select-pane", "-t", "work:0.0"])
            var probe = TerminalProbe(
                tmux: TmuxServer.tmux, server: ["-L", server.socket], followsTerminals: false, environment: [:])
            #expect(try await probe.sample(wallClock: Date()).app == "cat")
            // Typed into `cat`, the pane in front: tmux is not asked, and the pane stays. The
            // terminals' access times move in 8-second steps: type well inside one.
            try await Self.waitForTheNextStep(plus: 0.5)
            let asked = probe.tmuxAsked
            for _ in 0..<3 {
                // A whole line: `cat` reads its terminal a line at a time (an editor, each key).
                try await outer.run(["send-keys", "-t", "0", "typing", "Enter"])
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await probe.sample(wallClock: Date()).app == "cat")
            }
            #expect(probe.tmuxAsked == asked, "typing into the pane asked tmux")
            // In the next step, switch panes with tmux's own key (prefix o), which no pane reads.
            try await Self.waitForTheNextStep(plus: 0.2)
            try await outer.run(["send-keys", "-t", "0", "C-b", "o"])
            var seen = try await probe.sample(wallClock: Date()).app
            for _ in 0..<50 where seen != "sleep" {
                try await Task.sleep(for: .milliseconds(100))
                seen = try await probe.sample(wallClock: Date()).app
            }
            #expect(seen == "sleep")
            #expect(probe.tmuxAsked > asked)
        }
    }

    @Test func aClientThatAttachesOrDetachesIsSeenAtOnceWithoutAskingEverySample() async throws {
        try await TmuxServer.with(2) { servers in
            let (server, outer) = (servers[0], servers[1])
            try await Self.session(on: server)
            // As the monitor runs it: tmux asked again only when something changed.
            var probe = TerminalProbe(
                tmux: TmuxServer.tmux, server: ["-L", server.socket], followsTerminals: false, environment: [:])
            #expect(try await probe.sample(wallClock: Date()).app == nil)
            for _ in 0..<5 { _ = try await probe.sample(wallClock: Date()) }
            #expect(probe.tmuxAsked == 1, "nothing changed, nothing asked")
            // The first client attaches: tmux marks its socket, and the probe asks.
            try await Self.attach(server, from: outer)
            var seen = try await probe.sample(wallClock: Date()).app
            for _ in 0..<50 where seen == nil {
                try await Task.sleep(for: .milliseconds(50))
                seen = try await probe.sample(wallClock: Date()).app
            }
            #expect(seen == "sleep")
            // It detaches (its terminal closed): its process is gone, and the probe asks.
            try await outer.run(["kill-server"])
            for _ in 0..<50 where seen != nil {
                try await Task.sleep(for: .milliseconds(50))
                seen = try await probe.sample(wallClock: Date()).app
            }
            #expect(seen == nil)
        }
    }

    /// Sleeps until `plus` seconds into the kernel's next 8-second step of terminal times.
    static func waitForTheNextStep(plus: Double) async throws {
        let now = Date().timeIntervalSince1970
        try await Task.sleep(for: .seconds(8 - now.truncatingRemainder(dividingBy: 8) + plus))
    }

    @Test func inputOlderThanTheThresholdIsIdle() async throws {
        try await TmuxServer.with(2) { servers in
            let (server, outer) = (servers[0], servers[1])
            try await Self.session(on: server)
            try await Self.attach(server, from: outer)
            var probe = Self.probe(server)
            let fresh = try await probe.sample(wallClock: Date())
            #expect(fresh.app == "sleep")
            let idle = try #require(fresh.idleSeconds)
            // Ten minutes on, with no input since: idle by then, whatever the real time.
            let later = try await probe.sample(wallClock: Date().addingTimeInterval(600))
            #expect(try #require(later.idleSeconds) >= idle + 599)
            let timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
            #expect(timeline.isActive(fresh) && !timeline.isActive(later))
        }
    }
}
