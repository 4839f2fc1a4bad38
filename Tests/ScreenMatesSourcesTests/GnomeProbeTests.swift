import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import ScreenMatesTestSupport
import Testing

/// `--source gnome` against a real, headless GNOME Shell 43 with ScreenMates' extension: two
/// windows of different applications, the focus moved between them by the keyboard as a person
/// would (alt+tab), the blocks following it; idle from Mutter, ended by a key press; the shell
/// going away ends the source.
@Suite(
    .enabled(if: DesktopSession.Kind.gnome.available, Comment(rawValue: DesktopSession.Kind.gnome.missingNote)),
    .serialized)
struct GnomeProbeTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)
    /// A headless shell on a loaded machine may take seconds to answer: these tests are about what
    /// it answers, not how soon (the monitor's one-second wait is the probe's default).
    static let replyTimeout: Duration = .seconds(30)

    /// A new window or a key press reaches the shell a moment later.
    static func waitFor(_ app: String?, _ probe: inout GnomeProbe) async throws {
        for _ in 0..<400 where try probe.sample(wallClock: Date()).app != app {
            try await Task.sleep(for: .milliseconds(25))
        }
        try #require(try probe.sample(wallClock: Date()).app == app)
    }

    @Test func theFocusedWindowsAppHasTheTimeAndSwitchingFocusMovesIt() async throws {
        try await DesktopSession.with(.gnome) { gnome in
            var probe = try GnomeProbe(environment: gnome.environment, replyTimeout: Self.replyTimeout)
            #expect(probe.following.hasPrefix("the focused window on GNOME Shell"), "\(probe.following)")
            #expect(probe.knowsIdle)
            gnome.window(appID: "alpha", title: "Alpha window")
            try await Self.waitFor("alpha", &probe)
            #expect(try probe.sample(wallClock: Date()).title == "Alpha window")
            var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
            for second in 0...90 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            gnome.window(appID: "beta", title: "Beta window")
            try await Self.waitFor("beta", &probe)
            for second in 91...200 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            let usage = TwoAppUsage.derive(timeline, source: "gnome", from: Self.start)
            #expect(usage.trackedMilliseconds == ["alpha": 91_000, "beta": 109_000])
            #expect(usage.events.map(\.appID) == ["alpha", "beta"])

            // The keyboard moves the focus back, as a person would (alt+escape: the window below). The
            // headless seat loses the first keys of a new virtual keyboard now and then: a press that
            // changed nothing is made again.
            var moved = false
            for _ in 0..<3 where !moved {
                try await gnome.keys("alt+escape")
                for _ in 0..<40 where !moved {
                    moved = try probe.sample(wallClock: Date()).app == "alpha"
                    if !moved { try await Task.sleep(for: .milliseconds(50)) }
                }
            }
            #expect(moved, "the keyboard moved the focus back to alpha")
        }
    }

    /// A challenge's act through the extension: only while the application the probe last saw
    /// still has the focus; then minimized, or its application asked to close the window.
    @Test func actMinimizesOrClosesTheFocusedWindowOnlyWhileItIsTheOneSeen() async throws {
        try await DesktopSession.with(.gnome) { gnome in
            var probe = try GnomeProbe(environment: gnome.environment, replyTimeout: Self.replyTimeout)
            let alphaEnded = gnome.window(appID: "alpha", title: "Alpha window")
            try await Self.waitFor("alpha", &probe)
            let betaEnded = gnome.window(appID: "beta", title: "Beta window")
            try await Self.waitFor("beta", &probe)
            #expect(try await probe.act(.minimize))
            for _ in 0..<200 where (try await gnome.focusedApp()) == "beta" {
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(try await gnome.focusedApp() != "beta", "beta's window is out of sight")
            #expect(!betaEnded.isSet, "minimized, not closed")

            // Alpha has the focus now (or takes it from the keyboard), but the probe still says
            // beta: nothing is done to alpha.
            for _ in 0..<3 where (try await gnome.focusedApp()) != "alpha" {
                try await gnome.keys("alt+escape")
                for _ in 0..<40 where (try await gnome.focusedApp()) != "alpha" {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            try #require(try await gnome.focusedApp() == "alpha")
            do throws(FocusProbeError) {
                let done = try await probe.act(.close)
                Issue.record("act answered \(done) for a window that no longer has the focus")
            } catch {
                #expect(error.message.contains("beta no longer has the focus"), "\(error.message)")
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(!alphaEnded.isSet)
            #expect(try await gnome.focusedApp() == "alpha")
            try await Self.waitFor("alpha", &probe)
            #expect(try await probe.act(.close))
            for _ in 0..<400 where !alphaEnded.isSet { try await Task.sleep(for: .milliseconds(25)) }
            #expect(alphaEnded.isSet, "alpha's program closed its window when asked")
        }
    }

    @Test func idleComesFromMutterAndAKeyPressEndsIt() async throws {
        try await DesktopSession.with(.gnome) { gnome in
            gnome.window(appID: "alpha", title: "Alpha window")
            var probe = try GnomeProbe(environment: gnome.environment, replyTimeout: Self.replyTimeout)
            try await Self.waitFor("alpha", &probe)
            try await Task.sleep(for: .milliseconds(1500))
            let idle = try #require(try probe.sample(wallClock: Date()).idleSeconds)
            #expect(idle >= 1, "idle \(idle) s after 1.5 s without input")
            try await gnome.keys("shift")
            let after = try #require(try probe.sample(wallClock: Date()).idleSeconds)
            #expect(after < idle, "a key press resets the idle time: \(after) s, was \(idle) s")
        }
    }

    @Test func theShellGoingAwayEndsTheSource() async throws {
        var probe: GnomeProbe?
        try await DesktopSession.with(.gnome) { gnome in
            probe = try GnomeProbe(environment: gnome.environment, replyTimeout: Self.replyTimeout)
            _ = try probe?.sample(wallClock: Date())
        }
        do {
            _ = try probe?.sample(wallClock: Date())
            Issue.record("a sample after the shell stopped succeeded")
        } catch {
            #expect(error.sourceEnded, "\(error.message)")
        }
    }

    /// GNOME Shell without the extension (disabled, as a person may have it): the probe says what
    /// to do, with the folder for this version, and why GNOME needs it.
    @Test func withoutTheExtensionItSaysHowToInstallIt() async throws {
        try await DesktopSession.with(.gnome) { gnome in
            let disabled = try await Command.run(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell",
                    "--method", "org.gnome.Shell.Extensions.DisableExtension", "screenmates@screenmates.local",
                ], environment: gnome.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
            #expect(disabled.stdout.contains("true"), "\(disabled.stdout) \(disabled.stderr)")
            do throws(FocusProbeError) {
                _ = try GnomeProbe(environment: gnome.environment, extensionDirectory: "/usr/share/screenmates/x")
                Issue.record("a probe started without the extension")
            } catch {
                #expect(error.message.contains("For GNOME Shell 43."), "\(error.message)")
                #expect(error.message.contains("gnome-extensions enable screenmates@screenmates.local"))
                #expect(error.message.contains("cp -r /usr/share/screenmates/x/43/screenmates@screenmates.local "))
                #expect(!error.sourceEnded)
            }
        }
    }

    /// A session bus with no GNOME Shell on it: not a GNOME session.
    @Test func withoutGnomeShellItSaysSo() async throws {
        let daemon = try await Command.run(
            "/usr/bin/dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"])
        let lines = daemon.stdout.split(separator: "\n").map(String.init)
        try #require(daemon.status == 0 && lines.count == 2, "dbus-daemon: \(daemon.stderr)")
        defer { kill(pid_t(lines[1]) ?? 0, SIGTERM) }
        do {
            _ = try GnomeProbe(environment: ["DBUS_SESSION_BUS_ADDRESS": lines[0]])
            Issue.record("a probe started without GNOME Shell")
        } catch {
            #expect(error.message.contains("GNOME Shell is not on the session bus"), "\(error.message)")
        }
    }
}
