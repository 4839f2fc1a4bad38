import Foundation
import Glibc
import ScreenMatesTestSupport
import Testing

/// A challenge that acts when its app comes to the front while its rule forbids it
/// (`--when-opened`), tried with real windows: xterm windows under a real window manager (Xvfb
/// and openbox) and foot windows on a headless sway, followed by `screenmates monitor`.
protocol ChallengeActsTests: RealUsageTests {}

extension ChallengeActsTests {
    /// A home tracking `alpha` (vice) and `beta` (productive), with a challenge that forbids
    /// every block of alpha from now on, acting as `action` says; the challenge's id.
    func homeWithChallenge(_ home: Binary.Home, _ action: String) async throws -> String {
        try await setUp(home, vice: ["alpha"], productive: ["beta"])
        let create = try await Binary.run([
            "challenge", "create", "--home", home.path, "--at-most", "0", "--app", "alpha", "--now", "--days", "2",
            "--when-opened", action,
        ])
        try #require(create.status == 0, "\(create.stderr)")
        let id = create.stdout.split(separator: " ").dropFirst().first.map { String($0.dropLast()) }
        return try #require(id, "\(create.stdout)")
    }

    /// What `status --json` lists of the challenge's acts: (challenge, app, action).
    func acts(_ home: Binary.Home) async throws -> [[String]] {
        let status = try await Binary.run(["status", "--json", "--home", home.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let acts = try #require(json["challengeActs"] as? [[String: Any]], "\(status.stdout)")
        return acts.map { act in ["challenge", "app", "action"].map { act[$0] as? String ?? "" } }
    }

    /// Waits until `condition` holds, for up to `seconds`.
    func eventually(_ seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }
}

@Suite(.enabled(if: XDesktop.available, Comment(rawValue: XDesktop.missingNote)), .serialized)
struct ChallengeActsOnX11EndToEndTests: ChallengeActsTests {
    /// Windows of alpha and beta, beta focused, and `screenmates monitor --source x11` following
    /// them. Both windows are there before the monitor starts: a window of alpha mapped while it
    /// runs could be moved away or closed as soon as it had the focus, before xdotool found it.
    func following(_ home: Binary.Home, on desktop: XDesktop) async throws
        -> (alpha: String, beta: String, monitor: SpawnedProcess)
    {
        let alpha = try await desktop.window(class: "alpha")
        let beta = try await desktop.window(class: "beta")
        try await desktop.focus(beta, class: "beta")
        let monitor = try await SpawnedProcess(
            Binary.path, ["monitor", "--home", home.path, "--source", "x11"],
            environment: ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new })
        #expect(try await waitForError(monitor, "following the focused window on X11"), "\(monitor.standardError)")
        return (alpha, beta, monitor)
    }

    @Test func aForbiddenWindowIsMinimizedAtOnceAndAnAllowedOneIsLeftAlone() async throws {
        let home = Binary.Home()
        let id = try await homeWithChallenge(home, "minimize")
        try await XDesktop.with { desktop in
            let (alpha, _, monitor) = try await following(home, on: desktop)
            defer { monitor.kill() }
            // The allowed app has the focus for two seconds: nothing happens.
            try await Task.sleep(for: .seconds(2))
            #expect(!monitor.standardError.contains("off limits"), "\(monitor.standardError)")
            try await desktop.activate(alpha)
            #expect(
                try await waitForError(monitor, "alpha is off limits (challenge \(id))", timeout: .seconds(30)),
                "\(monitor.standardError)")
            #expect(monitor.standardError.contains("The window was moved out of sight."), "\(monitor.standardError)")
            #expect(
                try await eventually {
                    try await Command.run(
                        "/usr/bin/xprop", ["-id", alpha, "WM_STATE"], environment: desktop.environment
                    )
                    .stdout.contains("Iconic")
                }, "the window manager iconified the window")
            #expect(try await acts(home) == [[id, "custom-alpha", "minimize"]])
            // Brought back, it goes out of sight again, and says so again.
            try await desktop.activate(alpha)
            #expect(try await eventually { try await acts(home).count == 2 }, "\(monitor.standardError)")
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
        }
    }

    @Test func aForbiddenWindowIsAskedToCloseAndItsApplicationClosesIt() async throws {
        let home = Binary.Home()
        let id = try await homeWithChallenge(home, "close")
        try await XDesktop.with { desktop in
            let (alpha, beta, monitor) = try await following(home, on: desktop)
            defer { monitor.kill() }
            try await desktop.activate(alpha)
            #expect(
                try await waitForError(monitor, "alpha is off limits (challenge \(id))", timeout: .seconds(30)),
                "\(monitor.standardError)")
            #expect(
                try await eventually {
                    try await Command.run(
                        "/usr/bin/xdotool", ["search", "--class", "alpha"], environment: desktop.environment
                    ).stdout.isEmpty
                }, "xterm closed its window when asked")
            #expect(try await acts(home) == [[id, "custom-alpha", "close"]])
            #expect(
                try await Command.run(
                    "/usr/bin/xdotool", ["search", "--class", "beta"], environment: desktop.environment
                )
                .stdout.contains(beta), "the allowed window stays")
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
        }
    }
}

@Suite(
    .enabled(if: HeadlessSway.available, "sway or foot is not installed (Debian: apt install sway foot)"), .serialized)
struct ChallengeActsOnSwayEndToEndTests: ChallengeActsTests {
    /// The node of the window whose app id is `appID` in sway's tree, if it is there.
    func node(_ sway: HeadlessSway, _ appID: String) async throws -> [String: Any]? {
        func find(_ node: [String: Any]) -> [String: Any]? {
            if node["app_id"] as? String == appID { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] {
                    if let found = find(child) { return found }
                }
            }
            return nil
        }
        let tree = try await sway.swaymsg(["-t", "get_tree"])
        return (try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any]).flatMap(find)
    }

    @Test func aForbiddenWindowGoesToTheScratchpadThenIsClosedWhenAsked() async throws {
        let home = Binary.Home()
        let id = try await homeWithChallenge(home, "minimize")
        let sway = try await HeadlessSway()
        try await sway.window(appID: "beta")
        try await sway.window(appID: "alpha")
        try await sway.swaymsg(["[app_id=beta] focus"])
        let monitor = try await SpawnedProcess(
            Binary.path, ["monitor", "--home", home.path, "--source", "sway"],
            environment: ProcessInfo.processInfo.environment.merging(sway.environment) { _, new in new })
        defer { monitor.kill() }
        #expect(try await waitForError(monitor, "following the focused window on sway"), "\(monitor.standardError)")
        try await Task.sleep(for: .seconds(2))
        #expect(!monitor.standardError.contains("off limits"), "\(monitor.standardError)")
        try await sway.swaymsg(["[app_id=alpha] focus"])
        #expect(
            try await waitForError(monitor, "alpha is off limits (challenge \(id))", timeout: .seconds(30)),
            "\(monitor.standardError)")
        #expect(
            try await eventually { try await node(sway, "alpha")?["visible"] as? Bool == false },
            "the window went to the scratchpad")
        #expect(try await node(sway, "beta")?["visible"] as? Bool == true)
        // Now the challenge asks for the window to be closed.
        let change = try await Binary.run(["challenge", "when-opened", id, "close", "--home", home.path])
        #expect(change.status == 0, "\(change.stderr)")
        try await sway.swaymsg(["[app_id=alpha] focus"])
        let closed = try await eventually { try await node(sway, "alpha") == nil }
        #expect(closed, "foot closed its window when asked: \(monitor.standardError)")
        #expect(try await acts(home).map { $0[2] } == ["close", "minimize"])
        monitor.kill(SIGTERM)
        #expect(await monitor.wait(timeout: 30) == 143)
    }
}

/// The same on the desktops most people run, headless: GNOME Shell 43 with ScreenMates' extension,
/// which minimizes the window or asks it to close, and KWin 5.27, where the monitor loads a
/// one-shot script that does. Each window is a GTK window of its own program.
@Suite(
    .enabled(
        if: DesktopSession.Kind.gnome.available && DesktopSession.Kind.kwin.available,
        Comment(rawValue: DesktopSession.Kind.gnome.missingNote + "; " + DesktopSession.Kind.kwin.missingNote)),
    .serialized)
struct ChallengeActsOnGnomeKDEEndToEndTests: ChallengeActsTests {
    static let sources: [(DesktopSession.Kind, String)] = [(.gnome, "gnome"), (.kwin, "kde")]

    /// Alpha's window, then beta's (which takes the focus), and the monitor following them; the
    /// flags say when each window's program ended.
    func following(_ home: Binary.Home, on desktop: DesktopSession, source: String) async throws
        -> (alpha: XDesktop.Flag, beta: XDesktop.Flag, monitor: SpawnedProcess)
    {
        let alpha = desktop.window(appID: "alpha", title: "Alpha window")
        #expect(try await eventually(60) { try await desktop.focusedApp() == "alpha" }, "alpha's window is focused")
        let beta = desktop.window(appID: "beta", title: "Beta window")
        #expect(try await eventually(60) { try await desktop.focusedApp() == "beta" }, "beta's window is focused")
        let monitor = try await SpawnedProcess(
            Binary.path, ["monitor", "--home", home.path, "--source", source],
            environment: ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new })
        #expect(try await waitForError(monitor, "following the focused window on"), "\(monitor.standardError)")
        return (alpha, beta, monitor)
    }

    /// Brings alpha's window (the one used before) to the front from the keyboard, as a person
    /// would: GNOME's Alt+Escape, KWin's Alt+Tab. A press the headless seat lost (the first keys of
    /// a new virtual keyboard, now and then) is made again, as long as beta keeps the focus and the
    /// monitor has said nothing.
    func bringAlphaForward(_ desktop: DesktopSession, _ monitor: SpawnedProcess) async throws {
        for _ in 0..<5 {
            switch desktop.kind {
            case .gnome: try await desktop.keys("alt+escape")
            case .kwin: try await desktop.walkThroughWindows()
            }
            let moved = try await eventually(5) {
                if monitor.standardError.contains("off limits") { return true }
                return try await desktop.focusedApp() != "beta"
            }
            if moved { return }
        }
        Issue.record("alpha's window never came to the front: \(monitor.standardError)")
    }

    @Test(arguments: [0, 1])
    func aForbiddenWindowIsMinimizedAtOnceAndAnAllowedOneIsLeftAlone(_ index: Int) async throws {
        let (kind, source) = Self.sources[index]
        let home = Binary.Home()
        let id = try await homeWithChallenge(home, "minimize")
        try await DesktopSession.with(kind) { desktop in
            let (alpha, beta, monitor) = try await following(home, on: desktop, source: source)
            defer { monitor.kill() }
            // The allowed app has the focus for two seconds: nothing happens.
            try await Task.sleep(for: .seconds(2))
            #expect(!monitor.standardError.contains("off limits"), "\(monitor.standardError)")
            try await bringAlphaForward(desktop, monitor)
            #expect(
                try await waitForError(monitor, "alpha is off limits (challenge \(id))", timeout: .seconds(30)),
                "\(monitor.standardError)")
            #expect(monitor.standardError.contains("The window was moved out of sight."), "\(monitor.standardError)")
            #expect(
                try await eventually { try await desktop.focusedApp() != "alpha" },
                "alpha's window lost the focus: \(monitor.standardError)")
            if kind == .kwin {
                let windows = try await desktop.kwinWindows()
                #expect(windows.first { $0.appID == "alpha" }?.minimized == true, "\(windows)")
            }
            #expect(!alpha.isSet && !beta.isSet, "minimized, not closed")
            #expect(try await acts(home) == [[id, "custom-alpha", "minimize"]])
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
        }
    }

    @Test(arguments: [0, 1])
    func aForbiddenWindowIsAskedToCloseAndItsApplicationClosesIt(_ index: Int) async throws {
        let (kind, source) = Self.sources[index]
        let home = Binary.Home()
        let id = try await homeWithChallenge(home, "close")
        try await DesktopSession.with(kind) { desktop in
            let (alpha, beta, monitor) = try await following(home, on: desktop, source: source)
            defer { monitor.kill() }
            try await bringAlphaForward(desktop, monitor)
            #expect(
                try await waitForError(monitor, "alpha is off limits (challenge \(id))", timeout: .seconds(30)),
                "\(monitor.standardError)")
            #expect(monitor.standardError.contains("was asked to close the window."), "\(monitor.standardError)")
            #expect(try await eventually { alpha.isSet }, "the window's program closed it when asked")
            #expect(!beta.isSet, "the allowed window stays")
            #expect(try await acts(home) == [[id, "custom-alpha", "close"]])
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
        }
    }

    /// An extension installed before it could act (no `Minimize`, no `Close` on the bus): the
    /// notice says so, once, and the window stays.
    @Test func anOlderGnomeExtensionGivesTheNoticeAndSaysWhyTheWindowStays() async throws {
        let home = Binary.Home()
        let id = try await homeWithChallenge(home, "minimize")
        let older = NSTemporaryDirectory() + "sm-older-extension-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: older) }
        let shipped = DesktopSession.gnomeExtension(forShell: 43)
        try FileManager.default.copyItem(atPath: shipped, toPath: older)
        let script = older + "/extension.js"
        let lines = try String(contentsOfFile: script, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        try lines.filter { !$0.contains("<method name=\"Minimize\"") && !$0.contains("<method name=\"Close\"") }
            .joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        try await DesktopSession.with(.gnome, gnomeExtension: older) { desktop in
            let (alpha, _, monitor) = try await following(home, on: desktop, source: "gnome")
            defer { monitor.kill() }
            try await bringAlphaForward(desktop, monitor)
            #expect(
                try await waitForError(monitor, "alpha is off limits (challenge \(id))", timeout: .seconds(30)),
                "\(monitor.standardError)")
            #expect(
                monitor.standardError.contains("The ScreenMates extension running in GNOME Shell is an older one"),
                "\(monitor.standardError)")
            // The window stays in front, and nothing is tried again while it keeps the focus.
            try await Task.sleep(for: .seconds(3))
            #expect(try await desktop.focusedApp() == "alpha")
            #expect(!alpha.isSet)
            #expect(try await acts(home) == [[id, "custom-alpha", "minimize"]], "\(monitor.standardError)")
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
        }
    }
}
