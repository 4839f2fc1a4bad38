import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import ScreenMatesTestSupport
import Testing

/// `--source x11` against Xvfb, openbox and two xterms of different classes; xdotool moves the
/// focus, and the blocks follow it.
@Suite(.enabled(if: XDesktop.available, Comment(rawValue: XDesktop.missingNote)), .serialized)
struct X11ProbeTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)

    /// The window manager publishes the new focus a moment after xdotool asked for it.
    static func waitForFocus(on app: String, _ probe: inout X11Probe) async throws {
        for _ in 0..<400 where try probe.sample(wallClock: Date()).app != app {
            try await Task.sleep(for: .milliseconds(25))
        }
        try #require(try probe.sample(wallClock: Date()).app == app)
    }

    @Test func theFocusedWindowsClassHasTheTimeAndSwitchingFocusMovesIt() async throws {
        try await XDesktop.with { desktop in
            let alpha = try await desktop.window(class: "Alpha")
            let beta = try await desktop.window(class: "Beta")
            var probe = try X11Probe(display: desktop.display)
            #expect(probe.knowsIdle, "Xvfb has the XScreenSaver extension")
            var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
            try await desktop.xdotool(["windowactivate", "--sync", alpha])
            try await Self.waitForFocus(on: "Alpha", &probe)
            for second in 0...90 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            let seen = try probe.sample(wallClock: Date())
            #expect(seen.app == "Alpha" && seen.title == "Alpha window")
            try await desktop.xdotool(["windowactivate", "--sync", beta])
            try await Self.waitForFocus(on: "Beta", &probe)
            for second in 91...200 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            let usage = TwoAppUsage.derive(timeline, source: "x11", from: Self.start, names: ("Alpha", "Beta"))
            #expect(usage.trackedMilliseconds == ["alpha": 91_000, "beta": 109_000])
            #expect(usage.events.map(\.appID) == ["alpha", "beta"])
        }
    }

    @Test func idleComesFromTheScreenSaverExtensionAndInputResetsIt() async throws {
        try await XDesktop.with { desktop in
            _ = try await desktop.window(class: "Alpha")
            var probe = try X11Probe(display: desktop.display)
            // Nobody has touched this server: idle grows from its start.
            try await Task.sleep(for: .milliseconds(1500))
            let untouched = try #require(try probe.sample(wallClock: Date()).idleSeconds)
            #expect(untouched >= 1)
            try await desktop.xdotool(["mousemove", "10", "10", "mousemove", "200", "200"])
            let touched = try #require(try probe.sample(wallClock: Date()).idleSeconds)
            #expect(touched < untouched)
        }
    }

    @Test func anXServerThatGoesAwayEndsTheSourceAndTheProcessLivesOn() async throws {
        try await XDesktop.with { desktop in
            let alpha = try await desktop.window(class: "Alpha")
            var probe = try X11Probe(display: desktop.display)
            // A visible window is not yet a focused one: the window manager focuses it a moment
            // later (on a busy machine, after the first sample).
            try await desktop.xdotool(["windowactivate", "--sync", alpha])
            try await Self.waitForFocus(on: "Alpha", &probe)
            try await desktop.endServer()
            #expect {
                _ = try probe.sample(wallClock: Date())
            } throws: { error in
                (error as? FocusProbeError)?.sourceEnded == true
            }
        }
    }

    @Test func aDisplayThatCannotBeOpenedIsSaidClearly() {
        #expect(throws: FocusProbeError.self) { try X11Probe(display: ":9999") }
        do {
            _ = try X11Probe(display: ":9999")
        } catch {
            #expect(error.message.contains("Cannot open the X11 display :9999"))
        }
    }
}
