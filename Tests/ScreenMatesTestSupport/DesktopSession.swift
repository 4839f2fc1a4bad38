import Foundation
import Testing

/// A private, headless desktop for as long as the scope `with` opens — GNOME Shell 43 with
/// ScreenMates' extension (`gnome-shell --headless`), or KWin 5.27 on its virtual backend —
/// started, restarted and stopped by `.ci/gnome-session` or `.ci/kwin-session`, which CI runs too,
/// in a directory of its own (its own session bus, home and runtime directory).
public struct DesktopSession: Sendable {
    public enum Kind: String, Sendable {
        case gnome
        case kwin

        var tools: [String] {
            let common = ["/usr/bin/dbus-daemon", "/usr/bin/python3", "/usr/bin/gdbus"]
            switch self {
            case .gnome: return ["/usr/bin/gnome-shell"] + common
            case .kwin: return ["/usr/bin/kwin_wayland"] + common
            }
        }

        /// Whether this machine can run it.
        public var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

        /// What to install when it cannot.
        public var missingNote: String {
            switch self {
            case .gnome: "GNOME Shell is not installed (Debian: apt install gnome-shell python3-gi gir1.2-gtk-3.0)"
            case .kwin: "KWin is not installed (Debian: apt install kwin-wayland python3-gi gir1.2-gtk-3.0)"
            }
        }

        var script: String { DesktopSession.root.appendingPathComponent(".ci/\(rawValue)-session").path }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let window = root.appendingPathComponent(".ci/desktop-window").path
    /// The script the monitor loads into KWin, as shipped.
    public static let kwinScript = root.appendingPathComponent("assets/kwin/screenmates-focus.js").path

    /// ScreenMates' GNOME Shell extension as shipped, for GNOME Shell `major` (43: the legacy
    /// script; 45: the ES module).
    public static func gnomeExtension(forShell major: Int) -> String {
        root.appendingPathComponent(
            "assets/gnome-shell-extension/\(major >= 45 ? 45 : 43)/screenmates@screenmates.local"
        ).path
    }

    public let kind: Kind
    public let directory: String
    /// What a source needs to find this desktop: its session bus, Wayland and X11 displays.
    public let environment: [String: String]
    let programs: BackgroundPrograms

    /// One desktop at a time in the whole test run: GNOME Shell and KWin draw in software, and
    /// two beside the rest of the suite would starve it on two cores.
    /// `gnomeExtension`: a folder installed as ScreenMates' GNOME Shell extension instead of the
    /// shipped one (an older extension, say).
    public static func with<T>(
        _ kind: Kind, gnomeExtension: String? = nil, _ body: (DesktopSession) async throws -> T
    ) async throws -> T {
        await Turns.shared.take()
        do {
            let result = try await run(kind, gnomeExtension, body)
            await Turns.shared.give()
            return result
        } catch {
            await Turns.shared.give()
            throw error
        }
    }

    private actor Turns {
        static let shared = Turns()
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func take() async {
            guard busy else {
                busy = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func give() {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
    }

    private static func run<T>(_ kind: Kind, _ gnomeExtension: String?, _ body: (DesktopSession) async throws -> T)
        async throws -> T
    {
        try await BackgroundPrograms.with { programs in
            let directory = NSTemporaryDirectory() + "sm-\(kind.rawValue)-" + UUID().uuidString.prefix(8)
            let started = try await Command.run(
                kind.script, ["start", directory] + (gnomeExtension.map { [$0] } ?? []), timeout: 90)
            guard started.status == 0 else {
                _ = try await Command.run(kind.script, ["stop", directory])
                throw Failure(message: "\(kind.rawValue) did not start: \(started.stderr)")
            }
            var environment: [String: String] = [:]
            for line in started.stdout.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { environment[parts[0]] = parts[1] }
            }
            let session = DesktopSession(kind: kind, directory: directory, environment: environment, programs: programs)
            do {
                let result = try await body(session)
                _ = try await Command.run(kind.script, ["stop", directory])
                return result
            } catch {
                _ = try await Command.run(kind.script, ["stop", directory])
                throw error
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// A Wayland window whose app_id is `appID`, titled `title` (a new window takes the focus);
    /// the flag is set when its program has ended (the window closed).
    @discardableResult
    public func window(appID: String, title: String) -> XDesktop.Flag {
        var environment = self.environment
        environment["GDK_BACKEND"] = "wayland"
        environment["PATH"] = "/usr/bin:/bin"
        let ended = XDesktop.Flag()
        programs.start(Self.window, [appID, title], environment: environment) { _ in ended.set() }
        return ended
    }

    /// The application whose window has the focus, as the desktop itself says ("" for none):
    /// GNOME through ScreenMates' extension, KWin through a script of the test's own.
    public func focusedApp() async throws -> String {
        switch kind {
        case .gnome:
            // ('alpha', 'Alpha window')
            let answer = try await call(
                "org.screenmates.FocusedWindow", "/org/screenmates/FocusedWindow", "org.screenmates.FocusedWindow.Get")
            return answer.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
                ?? ""
        case .kwin:
            return try await kwinWindows().first { $0.active }?.appID ?? ""
        }
    }

    /// KWin: every window as KWin sees it (its app id, whether it is minimized, whether it is the
    /// active one), told by a one-shot script of the test's own whose `print` lines land in
    /// KWin's log.
    public func kwinWindows() async throws -> [(appID: String, minimized: Bool, active: Bool)] {
        let name = "screenmates_test_" + UUID().uuidString.prefix(8).lowercased()
        let marker = name + ":"
        let script = directory + "/" + name + ".js"
        try """
        for (const window of (workspace.windowList ? workspace.windowList() : workspace.clientList()))
            print("\(marker) " + window.resourceClass + " " + window.minimized + " " + window.active);
        print("\(marker) end");
        """.write(toFile: script, atomically: true, encoding: .utf8)
        try await call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.loadScript", [script, name])
        try await call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.start")
        let deadline = ContinuousClock.now + .seconds(30)
        var windows: [(appID: String, minimized: Bool, active: Bool)]?
        while windows == nil, ContinuousClock.now < deadline {
            let log = (try? String(contentsOfFile: directory + "/kwin.log", encoding: .utf8)) ?? ""
            let lines = log.split(separator: "\n").compactMap { line in
                line.range(of: marker).map { line[$0.upperBound...].split(separator: " ").map(String.init) }
            }
            if lines.last == ["end"] {
                windows = lines.dropLast().filter { $0.count == 3 }.map { ($0[0], $0[1] == "true", $0[2] == "true") }
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        try await call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.unloadScript", [name])
        try? FileManager.default.removeItem(atPath: script)
        guard let windows else { throw Failure(message: "KWin did not run the test's script within 30 s") }
        return windows
    }

    /// Calls a method on this desktop's session bus with gdbus; returns what it printed.
    @discardableResult
    public func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String] = [])
        async throws -> String
    {
        let result = try await Command.run(
            "/usr/bin/gdbus",
            ["call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments,
            environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
        guard result.status == 0 else { throw Failure(message: "\(method): \(result.stderr)") }
        return result.stdout
    }

    /// GNOME: presses keys as a person would (`alt+escape`, `shift`).
    public func keys(_ names: String...) async throws {
        let result = try await Command.run(kind.script, ["keys", directory] + names)
        guard result.status == 0 else { throw Failure(message: "keys \(names): \(result.stderr)") }
    }

    /// KWin: Alt+Tab, as a person would (the window used before takes the focus).
    public func walkThroughWindows() async throws {
        try await call(
            "org.kde.kglobalaccel", "/component/kwin", "org.kde.kglobalaccel.Component.invokeShortcut",
            ["Walk Through Windows"])
    }

    /// KWin: input, as far as idle is concerned.
    public func userActivity() async throws {
        try await call(
            "org.freedesktop.ScreenSaver", "/ScreenSaver", "org.freedesktop.ScreenSaver.SimulateUserActivity")
    }

    /// KWin: stopped (its windows go with it) and started again on the same bus, as after a crash.
    public func restart() async throws {
        let result = try await Command.run(kind.script, ["restart", directory], timeout: 60)
        guard result.status == 0 else { throw Failure(message: "KWin did not start again: \(result.stderr)") }
    }

    /// Stopped for good, before the scope ends (the desktop going away).
    public func stop() async throws {
        _ = try await Command.run(kind.script, ["stop", directory])
    }
}
