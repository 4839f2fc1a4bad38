import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import ScreenMatesTestSupport
import Testing

/// `--source sway` against a real, headless sway 1.7: two foot windows with different app ids
/// and an X11 window through Xwayland; swaymsg moves the focus, and the blocks follow it.
@Suite(.enabled(if: SwaySession.available, Comment(rawValue: SwaySession.missingNote)), .serialized)
struct SwayProbeTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)

    /// The focus event arrives a moment after swaymsg asked for it.
    static func waitFor(_ app: String?, _ probe: inout SwayProbe) async throws {
        for _ in 0..<400 where try probe.sample(wallClock: Date()).app != app {
            try await Task.sleep(for: .milliseconds(25))
        }
        try #require(try probe.sample(wallClock: Date()).app == app)
    }

    @Test func theFocusedWindowsAppIDHasTheTimeAndSwitchingFocusMovesIt() async throws {
        try await SwaySession.with { sway in
            try await sway.window(appID: "alpha")
            try await sway.window(appID: "beta")
            var probe = try SwayProbe(environment: sway.environment)
            #expect(probe.following.hasPrefix("the focused window on sway 1.7"), "\(probe.following)")
            var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
            try await sway.swaymsg(["[app_id=alpha] focus"])
            try await Self.waitFor("alpha", &probe)
            for second in 0...90 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            try await sway.swaymsg(["[app_id=beta] focus"])
            try await Self.waitFor("beta", &probe)
            for second in 91...200 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            let usage = TwoAppUsage.derive(timeline, source: "sway", from: Self.start)
            #expect(usage.trackedMilliseconds == ["alpha": 91_000, "beta": 109_000])
            #expect(usage.events.map(\.appID) == ["alpha", "beta"])

            // An empty workspace in front: nothing has the focus.
            try await sway.swaymsg(["workspace", "2"])
            try await Self.waitFor(nil, &probe)
            try await sway.swaymsg(["workspace", "1"])
            try await Self.waitFor("beta", &probe)
            // The focused window closed: the focus moves on, and the probe with it.
            try await sway.swaymsg(["[app_id=beta] kill"])
            try await Self.waitFor("alpha", &probe)
        }
    }

    @Test func anXwaylandWindowIsNamedByItsClass() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/xterm"), "xterm is not installed")
        try await SwaySession.with { sway in
            try await sway.open(
                "xterm -class Gamma -title 'Gamma window' -e sleep 1000", expect: "\"class\": \"Gamma\"")
            var probe = try SwayProbe(environment: sway.environment)
            try await sway.swaymsg(["[class=Gamma] focus"])
            try await Self.waitFor("Gamma", &probe)
            #expect(try probe.sample(wallClock: Date()).title == "Gamma window")
        }
    }

    /// A monitor started with the session, before the compositor's Wayland socket was there:
    /// the display is asked for again a minute later, and idle comes from then on.
    @Test func aWaylandDisplayThatComesLateGivesIdleOnceItIsThere() async throws {
        try await SwaySession.with { sway in
            try await sway.window(appID: "alpha")
            var environment = sway.environment
            let late = "wayland-late-" + UUID().uuidString.prefix(8)
            environment["WAYLAND_DISPLAY"] = String(late)
            let start = Date()
            var probe = try SwayProbe(idleTimeout: 1, environment: environment)
            #expect(!probe.knowsIdle)
            #expect(probe.following.contains("cannot be reached yet"), "\(probe.following)")
            #expect(try probe.sample(wallClock: start).idleSeconds == nil)
            let display = try #require(sway.environment["WAYLAND_DISPLAY"])
            try FileManager.default.createSymbolicLink(
                atPath: sway.runtime + "/" + late, withDestinationPath: sway.runtime + "/" + display)
            // Not before the minute is up; then once, and from then on.
            #expect(try probe.sample(wallClock: start.addingTimeInterval(30)).idleSeconds == nil)
            #expect(!probe.knowsIdle)
            var idle = try probe.sample(wallClock: start.addingTimeInterval(61)).idleSeconds
            #expect(probe.knowsIdle)
            #expect(probe.following.contains("idle from org_kde_kwin_idle"), "\(probe.following)")
            // Told after one second without input.
            for _ in 0..<200 where (idle ?? 0) < 1 {
                try await Task.sleep(for: .milliseconds(25))
                idle = try probe.sample(wallClock: Date().addingTimeInterval(61)).idleSeconds
            }
            #expect((idle ?? 0) >= 1, "sway said the user went idle")
        }
    }

    @Test func idleComesFromTheCompositorAndInputEndsIt() async throws {
        try await SwaySession.with { sway in
            try await sway.window(appID: "alpha")
            // Told after one second without input (the monitor asks for its idle threshold).
            var probe = try SwayProbe(idleTimeout: 1, environment: sway.environment)
            #expect(probe.idleProtocol == "org_kde_kwin_idle", "sway 1.7 offers KDE's idle protocol")
            #expect(probe.following.contains("idle from org_kde_kwin_idle"))
            var idle = try probe.sample(wallClock: Date()).idleSeconds ?? 0
            for _ in 0..<200 where idle < 1 {
                try await Task.sleep(for: .milliseconds(25))
                idle = try probe.sample(wallClock: Date()).idleSeconds ?? 0
            }
            #expect(idle >= 1, "sway said the user went idle")
            let later = try #require(try probe.sample(wallClock: Date().addingTimeInterval(600)).idleSeconds)
            #expect(later >= 600)
            // A key typed (a virtual keyboard): the user is back.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/wtype") {
                try await sway.swaymsg(["exec", "wtype x"])
                for _ in 0..<200 where idle > 0 {
                    try await Task.sleep(for: .milliseconds(25))
                    idle = try probe.sample(wallClock: Date()).idleSeconds ?? 0
                }
                #expect(idle == 0, "sway said the user is back")
            }
        }
    }

    @Test func aSwayThatExitsEndsTheSource() async throws {
        try await SwaySession.with { sway in
            try await sway.window(appID: "alpha")
            var probe = try SwayProbe(environment: sway.environment)
            // sway exits before it answers, so swaymsg's own status says nothing.
            _ = try await Command.run("/usr/bin/swaymsg", ["-s", sway.socket, "exit"], environment: [:])
            var ended: FocusProbeError?
            for _ in 0..<400 where ended == nil {
                do throws(FocusProbeError) {
                    _ = try probe.sample(wallClock: Date())
                } catch {
                    ended = error
                }
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(ended?.sourceEnded == true, "\(String(describing: ended))")
        }
    }

    @Test func noSwayIsSaidClearly() {
        #expect {
            try SwayProbe(environment: [:])
        } throws: { error in
            (error as? FocusProbeError)?.message.contains("SWAYSOCK is not set") == true
        }
        #expect {
            try SwayProbe(environment: ["SWAYSOCK": "/nonexistent/sway-ipc.sock"])
        } throws: { error in
            (error as? FocusProbeError)?.message.contains("Cannot connect to sway at /nonexistent/sway-ipc.sock")
                == true
        }
    }
}
