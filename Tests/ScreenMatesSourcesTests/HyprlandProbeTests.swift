import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import Testing

/// `--source hyprland` against Hyprland's sockets played back (`HyprlandReplay`: Hyprland is not
/// packaged for bookworm): the active window asked at start, then followed from the event lines.
@Suite struct HyprlandProbeTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    static func environment(_ replay: HyprlandReplay) -> [String: String] {
        // No WAYLAND_DISPLAY: the idle signal is the compositor's, not played back here.
        ["XDG_RUNTIME_DIR": replay.runtime, "HYPRLAND_INSTANCE_SIGNATURE": replay.signature]
    }

    @Test func theActiveWindowAtStartIsAskedAndFocusChangesFollowTheEventLines() async throws {
        let replay = try HyprlandReplay(reply: HyprlandReplay.kittyReply)
        var probe = try HyprlandProbe(environment: Self.environment(replay))
        #expect(!probe.knowsIdle)
        #expect(probe.following.contains("focused time counts as active"))
        let first = try probe.sample(wallClock: Self.start)
        #expect(first.app == "kitty" && first.title == #"nvim ~/notes, "plans""#)

        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        timeline.add(first, at: Self.start)
        for second in 1...60 {
            timeline.add(try probe.sample(wallClock: Self.start), at: Self.start.addingTimeInterval(Double(second)))
        }
        // Hyprland's lines for a focus change: the class and the title (commas and all), then
        // the window's address; a title change of the active window sends them again.
        try replay.send([
            "activewindow>>firefox,Hyprland Wiki, the news — Mozilla Firefox", "activewindowv2>>55d1c0a8c400",
            "workspace>>2", "windowtitle>>55d1c0a8c400",
        ])
        var sample = try probe.sample(wallClock: Self.start)
        for _ in 0..<100 where sample.app != "firefox" {
            try await Task.sleep(for: .milliseconds(20))
            sample = try probe.sample(wallClock: Self.start)
        }
        #expect(sample.app == "firefox" && sample.title == "Hyprland Wiki, the news — Mozilla Firefox")
        for second in 61...90 {
            timeline.add(try probe.sample(wallClock: Self.start), at: Self.start.addingTimeInterval(Double(second)))
        }
        let apps = [
            TrackedApp(id: "kitty", name: "kitty", bundleID: "k", category: .productive),
            TrackedApp(id: "firefox", name: "firefox", bundleID: "f", category: .vice),
        ]
        let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)
        let usage = BlockDeriver(
            source: "hyprland", host: "desk", blockSeconds: 30, calendar: calendar,
            matcher: AppMatcher(apps: apps, rules: [])
        ).derive(
            timeline.timeline, day: calendar.day(containing: Self.start), until: Self.start.addingTimeInterval(600))
        #expect(usage.trackedMilliseconds["kitty"] ?? 0 >= 60_000)
        #expect(usage.trackedMilliseconds["firefox"] ?? 0 >= 29_000)

        // Focus on nothing (the last window closed): Hyprland's line is a lone comma.
        try replay.send(["activewindow>>,", "activewindowv2>>"])
        for _ in 0..<100 where try probe.sample(wallClock: Self.start).app != nil {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try probe.sample(wallClock: Self.start).app == nil)
    }

    @Test func noActiveWindowAtStartIsNothingInFocus() async throws {
        let replay = try HyprlandReplay(reply: "{}")
        var probe = try HyprlandProbe(environment: Self.environment(replay))
        #expect(try probe.sample(wallClock: Self.start).app == nil)
    }

    @Test func aHyprlandThatExitsEndsTheSource() async throws {
        let replay = try HyprlandReplay(reply: HyprlandReplay.kittyReply)
        var probe = try HyprlandProbe(environment: Self.environment(replay))
        try replay.end()
        var ended: FocusProbeError?
        for _ in 0..<100 where ended == nil {
            do throws(FocusProbeError) {
                _ = try probe.sample(wallClock: Self.start)
            } catch {
                ended = error
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(ended?.sourceEnded == true, "\(String(describing: ended))")
    }

    @Test func noInstanceIsSaidClearly() throws {
        #expect(throws: FocusProbeError.self) { try HyprlandProbe(environment: [:]) }
        do {
            _ = try HyprlandProbe(environment: [
                "HYPRLAND_INSTANCE_SIGNATURE": "nope", "XDG_RUNTIME_DIR": "/nonexistent",
            ])
        } catch {
            #expect(error.message.contains("/nonexistent/hypr/nope") && error.message.contains("/tmp/hypr/nope"))
        }
    }

}
