import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import Testing

/// A private X server (Xvfb) with a real window manager (openbox) and windows of two classes.
final class XDesktop {
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xdotool", "/usr/bin/xterm", "/usr/bin/xprop"]
    static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
    static let missingNote =
        "Xvfb, openbox, xdotool, xterm or xprop is not installed (Debian: apt install xvfb openbox xdotool xterm x11-utils)"

    let display: String
    private var processes: [pid_t] = []

    init() throws {
        // A display number no one holds; Xvfb refuses one whose lock exists, then the next is tried.
        var chosen: String?
        var started: [pid_t] = []
        for number in Int.random(in: 100..<300)..<400
        where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            guard
                let server = ChildProcess.start(
                    "/usr/bin/Xvfb", [":\(number)", "-screen", "0", "800x600x24", "-nolisten", "tcp"], environment: [:])
            else { continue }
            var running = true
            for _ in 0..<400 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                running = ChildProcess.isRunning(server)
                if !running { break }
                usleep(25_000)
            }
            if running {
                started.append(server)
                chosen = ":\(number)"
                break
            }
        }
        display = try #require(chosen, "no free X display")
        processes = started
        try start("/usr/bin/openbox", [])
        // Openbox is up once it has published its check window; windows mapped before that are
        // not managed, and nothing publishes the focus.
        for _ in 0..<400 {
            let check = ChildProcess.run(
                "/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: ["DISPLAY": display])
            if let check, String(decoding: check.output, as: UTF8.self).contains("window id") { break }
            usleep(25_000)
        }
    }

    func start(_ path: String, _ arguments: [String]) throws {
        let pid = ChildProcess.start(
            path, arguments, environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
        processes.append(try #require(pid, "\(path) did not start"))
    }

    /// Runs xdotool and returns what it printed.
    @discardableResult
    func xdotool(_ arguments: [String]) throws -> String {
        let result = ChildProcess.run("/usr/bin/xdotool", arguments, environment: ["DISPLAY": display])
        let (status, output) = try #require(result, "xdotool did not start")
        try #require(status == 0, "xdotool \(arguments) exited with \(status)")
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A window of class `name`, once mapped: its id.
    func window(class name: String) throws -> String {
        try start("/usr/bin/xterm", ["-class", name, "-title", "\(name) window", "-e", "sleep", "1000"])
        let id = try xdotool(["search", "--sync", "--onlyvisible", "--class", name]).split(separator: "\n").first
        return String(try #require(id))
    }

    deinit {
        for pid in processes.reversed() { ChildProcess.stop(pid) }
    }
}

/// `--source x11` against Xvfb, openbox and two xterms of different classes; xdotool moves the
/// focus, and the blocks follow it.
@Suite(.enabled(if: XDesktop.available, Comment(rawValue: XDesktop.missingNote)), .serialized)
struct X11ProbeTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)

    /// The window manager publishes the new focus a moment after xdotool asked for it.
    static func waitForFocus(on app: String, _ probe: inout X11Probe) throws {
        for _ in 0..<400 where try probe.sample(wallClock: Date()).app != app {
            usleep(25_000)
        }
        try #require(try probe.sample(wallClock: Date()).app == app)
    }

    @Test func theFocusedWindowsClassHasTheTimeAndSwitchingFocusMovesIt() throws {
        let desktop = try XDesktop()
        let alpha = try desktop.window(class: "Alpha")
        let beta = try desktop.window(class: "Beta")
        var probe = try X11Probe(display: desktop.display)
        #expect(probe.knowsIdle, "Xvfb has the XScreenSaver extension")
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        try desktop.xdotool(["windowactivate", "--sync", alpha])
        try Self.waitForFocus(on: "Alpha", &probe)
        for second in 0...90 {
            timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
        }
        let seen = try probe.sample(wallClock: Date())
        #expect(seen.app == "Alpha" && seen.title == "Alpha window")
        try desktop.xdotool(["windowactivate", "--sync", beta])
        try Self.waitForFocus(on: "Beta", &probe)
        for second in 91...200 {
            timeline.add(try probe.sample(wallClock: Date()), at: Self.start.addingTimeInterval(Double(second)))
        }
        let apps = [
            TrackedApp(id: "alpha", name: "Alpha", bundleID: "a", category: .vice),
            TrackedApp(id: "beta", name: "Beta", bundleID: "b", category: .productive),
        ]
        let deriver = BlockDeriver(
            source: "x11", host: "desk", blockSeconds: 60, calendar: Self.calendar,
            matcher: AppMatcher(apps: apps, rules: []))
        let usage = deriver.derive(
            timeline.timeline, day: Self.calendar.day(containing: Self.start),
            until: Self.start.addingTimeInterval(3600))
        #expect(usage.trackedMilliseconds == ["alpha": 91_000, "beta": 109_000])
        #expect(usage.events.map(\.appID) == ["alpha", "beta"])
    }

    @Test func idleComesFromTheScreenSaverExtensionAndInputResetsIt() async throws {
        let desktop = try XDesktop()
        _ = try desktop.window(class: "Alpha")
        var probe = try X11Probe(display: desktop.display)
        // Nobody has touched this server: idle grows from its start.
        try await Task.sleep(for: .milliseconds(1500))
        let untouched = try #require(try probe.sample(wallClock: Date()).idleSeconds)
        #expect(untouched >= 1)
        try desktop.xdotool(["mousemove", "10", "10", "mousemove", "200", "200"])
        let touched = try #require(try probe.sample(wallClock: Date()).idleSeconds)
        #expect(touched < untouched)
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
