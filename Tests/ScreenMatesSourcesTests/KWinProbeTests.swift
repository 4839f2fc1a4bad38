import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesSources

/// `--source kde` against a real, headless KWin 5.27: the probe loads its script into KWin, two
/// windows of different applications are activated in turn (Alt+Tab), the blocks follow the
/// focus; idle from the compositor; KWin restarting takes the script away and the probe loads it
/// again; the probe gone, the script is unloaded.
@Suite(
    .enabled(if: DesktopSession.Kind.kwin.available, Comment(rawValue: DesktopSession.Kind.kwin.missingNote)),
    .serialized)
struct KWinProbeTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)

    /// The script's call arrives a moment after the activation.
    static func waitFor(_ app: String?, _ probe: inout KWinProbe) async throws {
        for _ in 0..<400 where try probe.sample(wallClock: Date()).app != app {
            try await Task.sleep(for: .milliseconds(25))
        }
        try #require(try probe.sample(wallClock: Date()).app == app)
    }

    static func loaded(_ name: String, _ kwin: DesktopSession) async throws -> Bool {
        try await kwin.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.isScriptLoaded", [name])
            .contains("true")
    }

    @Test func theActiveWindowsAppHasTheTimeAndAltTabMovesIt() async throws {
        try await DesktopSession.with(.kwin) { kwin in
            kwin.window(appID: "alpha", title: "Alpha window")
            var probe = try KWinProbe(script: DesktopSession.kwinScript, environment: kwin.environment)
            #expect(probe.following.hasPrefix("the focused window on KWin"), "\(probe.following)")
            // A KWin slow to answer (a loaded machine) is asked for idle again every few seconds.
            for _ in 0..<200 where !probe.knowsIdle {
                _ = try probe.sample(wallClock: Date())
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(probe.knowsIdle)
            #expect(try await Self.loaded(probe.scriptName, kwin))
            #expect(probe.scriptName.hasPrefix("screenmates_\(getpid())_"))
            try await Self.waitFor("alpha", &probe)
            #expect(try probe.sample(wallClock: Date()).title == "Alpha window")
            var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
            for second in 0...90 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            kwin.window(appID: "beta", title: "Beta window")
            try await Self.waitFor("beta", &probe)
            for second in 91...200 {
                timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
            }
            let usage = TwoAppUsage.derive(timeline, source: "kde", from: Self.start)
            #expect(usage.trackedMilliseconds == ["alpha": 91_000, "beta": 109_000])
            #expect(usage.events.map(\.appID) == ["alpha", "beta"])

            try await kwin.walkThroughWindows()
            try await Self.waitFor("alpha", &probe)
            try await kwin.walkThroughWindows()
            try await Self.waitFor("beta", &probe)
        }
    }

    @Test func idleComesFromTheCompositorAndInputEndsIt() async throws {
        try await DesktopSession.with(.kwin) { kwin in
            kwin.window(appID: "alpha", title: "Alpha window")
            var probe = try KWinProbe(script: DesktopSession.kwinScript, idleTimeout: 1, environment: kwin.environment)
            try await Self.waitFor("alpha", &probe)
            var idle: Double?
            for _ in 0..<300 where (idle ?? 0) < 1 {
                try await Task.sleep(for: .milliseconds(50))
                idle = try probe.sample(wallClock: Date()).idleSeconds
            }
            #expect((idle ?? 0) >= 1, "idle after a second without input: \(String(describing: idle))")
            try await kwin.userActivity()
            for _ in 0..<100 where (idle ?? 0) > 0 {
                try await Task.sleep(for: .milliseconds(50))
                idle = try probe.sample(wallClock: Date()).idleSeconds
            }
            #expect(idle == 0, "input ends idle: \(String(describing: idle))")
        }
    }

    @Test func aKWinThatRestartsGetsTheScriptAgainAndTheProbeGoneUnloadsIt() async throws {
        try await DesktopSession.with(.kwin) { kwin in
            var probe: KWinProbe? = try KWinProbe(script: DesktopSession.kwinScript, environment: kwin.environment)
            let name = probe!.scriptName
            kwin.window(appID: "alpha", title: "Alpha window")
            try await Self.waitFor("alpha", &probe!)
            try await kwin.restart()
            // Gone with KWin's windows; KWin back, the script is loaded again and a new window is seen.
            try await Self.waitFor(nil, &probe!)
            for _ in 0..<200 where !(try await Self.loaded(name, kwin)) {
                _ = try probe!.sample(wallClock: Date())
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(try await Self.loaded(name, kwin), "the script is loaded again after KWin restarted")
            kwin.window(appID: "gamma", title: "Gamma window")
            try await Self.waitFor("gamma", &probe!)
            probe = nil
            #expect(!(try await Self.loaded(name, kwin)), "the script is unloaded once the probe is gone")
        }
    }

    /// A challenge's act: a one-shot script minimizes the active window, or asks it to close,
    /// only while the application the probe last saw is still the active one; it is unloaded
    /// after, and what KWin said meanwhile (the focus moving) reaches the next sample.
    @Test func actMinimizesOrClosesTheActiveWindowOnlyWhileItIsTheOneSeen() async throws {
        try await DesktopSession.with(.kwin) { kwin in
            var probe = try KWinProbe(script: DesktopSession.kwinScript, environment: kwin.environment)
            let alphaEnded = kwin.window(appID: "alpha", title: "Alpha window")
            try await Self.waitFor("alpha", &probe)
            let betaEnded = kwin.window(appID: "beta", title: "Beta window")
            try await Self.waitFor("beta", &probe)
            #expect(try await probe.act(.minimize))
            let windows = try await kwin.kwinWindows()
            #expect(windows.first { $0.appID == "beta" }?.minimized == true, "\(windows)")
            #expect(!windows.contains { $0.active && $0.appID == "beta" }, "\(windows)")
            #expect(!(try await Self.loaded(probe.scriptName + "_act_1", kwin)), "the act's script is unloaded")

            // KWin activated alpha as beta went, but the probe has not looked since: its act is
            // for beta, and nothing is done to alpha.
            do throws(FocusProbeError) {
                let done = try await probe.act(.close)
                Issue.record("act answered \(done) for a window that is no longer the active one")
            } catch {
                #expect(error.message.contains("beta is no longer the active window"), "\(error.message)")
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(!alphaEnded.isSet && !betaEnded.isSet, "no window was closed")
            // What KWin said meanwhile is not lost: the next sample has alpha.
            try await Self.waitFor("alpha", &probe)
            #expect(try await probe.act(.close))
            for _ in 0..<400 where !alphaEnded.isSet { try await Task.sleep(for: .milliseconds(25)) }
            #expect(alphaEnded.isSet, "alpha's program closed its window when asked")
            #expect(!betaEnded.isSet)
        }
    }

    /// The act's script names the application as a string literal no window class can end.
    @Test func theActScriptQuotesAnyClass() {
        let script = KWinScriptLink.actScript(
            .close, app: "x\"); closeAll(); (\"\u{2028}é", answerTo: ":1.42", name: "screenmates_1_1_act_1")
        #expect(
            script.contains(
                #"!== "x\u0022\u0029\u003b\u0020closeAll\u0028\u0029\u003b\u0020\u0028\u0022\u2028\u00e9")"#),
            "\(script)")
        #expect(script.contains(#"callDBus(":1.42", "/org/screenmates/Monitor""#))
        #expect(script.contains("closeWindow()") && !script.contains("minimized = true"))
    }

    /// Any program on the session bus may call the probe's connection: what it sends is read within
    /// bounds (a 10,000-byte app id is cut at 4,096) and ends up as text like any other window's.
    @Test func whatAnotherProgramSendsIsReadWithinBounds() async throws {
        try await DesktopSession.with(.kwin) { kwin in
            var probe = try KWinProbe(script: DesktopSession.kwinScript, environment: kwin.environment)
            let runtime = try #require(kwin.environment["XDG_RUNTIME_DIR"])
            let loaded = try String(contentsOfFile: runtime + "/\(probe.scriptName).js", encoding: .utf8)
            let name = try #require(
                loaded.split(separator: "\n").first { $0.hasPrefix("const service = ") }?
                    .split(separator: "\"").dropFirst().first.map(String.init))
            let long = String(repeating: "x", count: 10_000)
            // The call waits for its answer, which the probe gives when it next looks.
            async let called = kwin.call(
                name, "/org/screenmates/Monitor", "org.screenmates.Monitor.WindowActivated", [long, "'a title'"])
            var sample = try probe.sample(wallClock: Date())
            for _ in 0..<200 where sample.app?.hasPrefix("xxx") != true {
                try await Task.sleep(for: .milliseconds(25))
                sample = try probe.sample(wallClock: Date())
            }
            #expect(sample.app?.utf8.count == 4096, "\(sample.app?.utf8.count ?? 0)")
            #expect(sample.title == "a title")
            _ = try await called
        }
    }

    @Test func withoutKWinItSaysSo() async throws {
        let daemon = try await Command.run(
            "/usr/bin/dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"])
        let lines = daemon.stdout.split(separator: "\n").map(String.init)
        try #require(daemon.status == 0 && lines.count == 2, "dbus-daemon: \(daemon.stderr)")
        defer { kill(pid_t(lines[1]) ?? 0, SIGTERM) }
        do {
            _ = try KWinProbe(script: DesktopSession.kwinScript, environment: ["DBUS_SESSION_BUS_ADDRESS": lines[0]])
            Issue.record("a probe started without KWin")
        } catch {
            #expect(error.message.contains("KWin is not on the session bus"), "\(error.message)")
        }
    }
}
