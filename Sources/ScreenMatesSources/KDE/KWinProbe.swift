import Foundation
import ScreenMatesMonitor
import Synchronization

/// `--source kde`: the focused window's application on KDE Plasma's KWin — its Wayland `app_id`
/// or, under Xwayland, its X11 class — and its title (only to match a site), told by a small KWin
/// script that the probe loads into KWin itself through KWin's scripting interface on the session
/// bus (`org.kde.kwin.Scripting`), and unloads when it ends; the idle signal from the compositor's
/// Wayland idle protocol (`WaylandIdle`).
///
/// KWin tells no ordinary program which window is active; a script running inside KWin knows, and
/// calls this probe's own connection back (`WindowActivated(s app_id, s title)`) on every
/// activation and title change. Nothing is installed: the script (`assets/kwin`) is loaded under
/// a name of the probe's own. When KWin restarts (it drops its scripts) the probe loads the
/// script again as soon as KWin is back on the bus; a KWin that does not come back within
/// `returnLimit` ends the source.
///
/// A challenge's act is a second, one-shot script (`KWinScriptLink.act`): KWin scripts offer no
/// method to call, so the probe loads a few lines that minimize the active window
/// (`minimized = true`) or ask it to close (`closeWindow()`, as its close button would) — only if
/// its `resourceClass` is still the application the focus script last named — then call back
/// what they did, and unloads them.
public struct KWinProbe: FocusProbe {
    public let sourceName = "kde"
    public let following: String
    private let link: KWinScriptLink
    private var idle: WaylandIdle?
    private let idleTimeout: TimeInterval
    private let environment: [String: String]
    private var focus: (app: String, title: String)?
    /// When KWin left the bus (the wall clock), while it is away.
    private var away: Date?
    /// When to ask the compositor for idle again, while it has not answered (a KWin slow to start).
    private var idleRetry: Date?
    /// What came from the bus while an act waited for its script: read at the next sample.
    private var held: [DBusConnection.Incoming] = []

    /// How long between asks for the idle signal while the compositor has not given it.
    static let idleRetryInterval: TimeInterval = 5

    /// How long KWin may be away (a restart takes about two seconds) before the source ends.
    public static let returnLimit: TimeInterval = 15

    /// Connects to the session bus of `environment`, loads `script` (the file in `assets/kwin`)
    /// into KWin, and asks the compositor for idle after `idleTimeout`.
    public init(
        script: String, idleTimeout: TimeInterval = 180,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FocusProbeError) {
        link = try KWinScriptLink(script: script, environment: environment)
        self.idleTimeout = idleTimeout
        self.environment = environment
        if environment["WAYLAND_DISPLAY"] != nil {
            idle = try? WaylandIdle.connect(environment: environment, timeout: idleTimeout)
            // A KWin still starting may not answer yet: asked again while sampling.
            idleRetry = idle == nil ? Date() + Self.idleRetryInterval : nil
        }
        following =
            "the focused window on KWin, through a KWin script"
            + (idle.map { " (idle from \($0.protocolName))" }
                ?? " (it offers no idle signal here: focused time counts as active)")
    }

    /// Whether the compositor offers an idle signal: without one, focused time counts as active.
    public var knowsIdle: Bool { idle != nil }

    /// The name the script is loaded under in KWin (`screenmates_PID_N`).
    public var scriptName: String { link.plugin }

    public mutating func sample(wallClock: Date) throws(FocusProbeError) -> FocusSample {
        guard link.bus.isConnected else {
            throw FocusProbeError("The session bus has gone.", sourceEnded: true)
        }
        let incoming = held + link.bus.drain()
        held = []
        for message in incoming {
            if !message.isSignal, message.member == "WindowActivated" {
                let app = message.values.first?.text ?? ""
                let title = message.values.count > 1 ? message.values[1].text ?? "" : ""
                focus = app.isEmpty ? nil : (app, title)
            } else if message.isSignal, message.member == "NameOwnerChanged", message.values.count == 3,
                message.values[0].text == KWinScriptLink.kwin
            {
                if message.values[2].text?.isEmpty ?? true {
                    away = wallClock
                    focus = nil
                    idle = nil
                } else {
                    away = nil
                    try link.load()
                    if environment["WAYLAND_DISPLAY"] != nil {
                        idle = try? WaylandIdle.connect(environment: environment, timeout: idleTimeout)
                        idleRetry = idle == nil ? Date() + Self.idleRetryInterval : nil
                    }
                }
            }
        }
        if let away {
            guard wallClock.timeIntervalSince(away) < Self.returnLimit else {
                throw FocusProbeError("KWin has gone from the session bus.", sourceEnded: true)
            }
            return FocusSample(app: nil, idleSeconds: nil)
        }
        if idle == nil, let retry = idleRetry, Date() >= retry {
            idle = try? WaylandIdle.connect(environment: environment, timeout: idleTimeout)
            idleRetry = idle == nil ? Date() + Self.idleRetryInterval : nil
        }
        var idleSeconds: Double?
        do {
            idleSeconds = try idle?.idleSeconds(at: wallClock)
        } catch {
            // The compositor's connection ends a moment before KWin leaves the bus.
            idle = nil
        }
        guard let focus else { return FocusSample(app: nil, idleSeconds: idleSeconds) }
        return FocusSample(app: focus.app, title: focus.title, idleSeconds: idleSeconds)
    }

    /// Minimizes the active window, or asks its application to close it, through a one-shot KWin
    /// script, if the application the focus script last named is still the active one.
    public mutating func act(_ act: WindowAct) async throws(FocusProbeError) -> Bool {
        guard away == nil, let app = focus?.app else { throw FocusProbeError("No window is active on KWin.") }
        let outcome = try await link.act(act, app: app, holding: &held)
        switch outcome {
        case "done":
            return true
        case "moved-on":
            throw FocusProbeError("KWin left it as it was: \(app) is no longer the active window.")
        default:
            throw FocusProbeError("KWin cannot \(act == .minimize ? "minimize" : "close") \(app)'s window.")
        }
    }
}

/// The script loaded into KWin for one probe, and the bus connection it calls back: unloaded, and
/// its file removed, when the probe is gone.
final class KWinScriptLink {
    static let kwin = "org.kde.KWin"

    let bus: DBusConnection
    /// The script as loaded: the asset with this connection's unique name in it.
    private let file: String
    /// The name it is loaded under: one per probe (KWin may still hold an unloaded script's name
    /// for a moment, and `auto` makes a probe to announce its choice before the one it follows).
    let plugin: String
    private static let made = Atomic<Int>(0)
    /// How many one-shot scripts this link has run (each is loaded under a name of its own).
    private var acts = 0

    /// How long an act waits for its script to call back (KWin reads a script's file in the
    /// background before it runs it).
    static let actLimit: Duration = .seconds(5)

    init(script: String, environment: [String: String]) throws(FocusProbeError) {
        guard let text = try? String(contentsOfFile: script, encoding: .utf8) else {
            throw FocusProbeError("The KWin script \(script) cannot be read.")
        }
        bus = try DBusConnection(environment: environment)
        let placeholder = "const service = \"org.screenmates.Monitor\";"
        guard text.contains(placeholder) else {
            throw FocusProbeError("The KWin script \(script) is not the one this version of ScreenMates loads.")
        }
        plugin = "screenmates_\(getpid())_\(Self.made.add(1, ordering: .relaxed).newValue)"
        let directory = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
        file = directory + "/" + plugin + ".js"
        let own = text.replacingOccurrences(of: placeholder, with: "const service = \"\(bus.uniqueName)\";")
        do {
            try own.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw FocusProbeError("The KWin script could not be written to \(file): \(error.localizedDescription)")
        }
        do throws(DBusConnection.Failure) {
            try bus.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged',arg0='\(Self.kwin)'")
        } catch {
            throw FocusProbeError("The session bus refused to pass on KWin's comings and goings: \(error.message)")
        }
        do {
            try load()
        } catch {
            try? FileManager.default.removeItem(atPath: file)
            throw error
        }
    }

    deinit {
        _ = try? scripting("unloadScript", [plugin])
        try? FileManager.default.removeItem(atPath: file)
    }

    /// Loads the script into KWin and starts it (again, after KWin restarted).
    func load() throws(FocusProbeError) {
        do throws(DBusConnection.Failure) {
            var id = try scripting("loadScript", [file, plugin]).first?.number
            if id == nil {
                // Loaded already (a KWin that kept it): once more, afresh.
                _ = try scripting("unloadScript", [plugin])
                id = try scripting("loadScript", [file, plugin]).first?.number
            }
            guard id != nil else {
                throw DBusConnection.Failure(
                    name: "org.screenmates.Error.ScriptRefused", message: "KWin did not load the script")
            }
            _ = try scripting("start", [])
        } catch {
            throw error.nobodyThere
                ? FocusProbeError("KWin is not on the session bus: there is no KDE Plasma session to follow.")
                : FocusProbeError("KWin did not take ScreenMates' script: \(error.message)")
        }
    }

    /// Runs a one-shot script that does `act` to the active window if its class is `app`, waits
    /// for its answer (`done`, `moved-on`: another window is active, `cannot`: the window forbids
    /// it) and unloads it. What else comes from the bus meanwhile is added to `held`.
    func act(_ act: WindowAct, app: String, holding held: inout [DBusConnection.Incoming]) async throws(FocusProbeError)
        -> String
    {
        acts += 1
        let name = "\(plugin)_act_\(acts)"
        let script = (file as NSString).deletingLastPathComponent + "/" + name + ".js"
        do {
            try Self.actScript(act, app: app, answerTo: bus.uniqueName, name: name).write(
                toFile: script, atomically: true, encoding: .utf8)
        } catch {
            throw FocusProbeError("The KWin script could not be written to \(script): \(error.localizedDescription)")
        }
        defer {
            _ = try? scripting("unloadScript", [name])
            try? FileManager.default.removeItem(atPath: script)
        }
        do throws(DBusConnection.Failure) {
            guard try scripting("loadScript", [script, name]).first?.number != nil else {
                throw DBusConnection.Failure(
                    name: "org.screenmates.Error.ScriptRefused", message: "KWin did not load the script")
            }
            _ = try scripting("start", [])
        } catch {
            throw FocusProbeError("KWin did not take ScreenMates' script: \(error.message)")
        }
        let deadline = ContinuousClock.now + Self.actLimit
        while ContinuousClock.now < deadline {
            for message in bus.drain() {
                if !message.isSignal, message.member == "WindowActed", message.values.count == 2,
                    message.values[0].text == name, let outcome = message.values[1].text
                {
                    return outcome
                }
                held.append(message)
            }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                throw FocusProbeError("The monitor is stopping.")
            }
        }
        throw FocusProbeError("KWin did not run ScreenMates' script within \(Self.actLimit).")
    }

    /// The one-shot script: KWin 5.27 names the active window `activeClient`, 6 `activeWindow`.
    static func actScript(_ act: WindowAct, app: String, answerTo service: String, name: String) -> String {
        let change =
            act == .minimize
            ? "if (window.minimizable) window.minimized = true; else outcome = \"cannot\";"
            : "if (window.closeable) window.closeWindow(); else outcome = \"cannot\";"
        return """
            // ScreenMates: a challenge's act on the active window, once; then unloaded.
            const window = workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient;
            let outcome = "done";
            if (!window || String(window.resourceClass) !== \(javaScriptString(app))) outcome = "moved-on";
            else { \(change) }
            callDBus(\(javaScriptString(service)), "/org/screenmates/Monitor", "org.screenmates.Monitor", "WindowActed",
                \(javaScriptString(name)), outcome);

            """
    }

    /// `text` as a JavaScript string literal: anything but letters, digits and `._-:` escaped, so no
    /// window's class can end the literal.
    static func javaScriptString(_ text: String) -> String {
        var literal = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x5F, 0x2D, 0x3A:
                literal.append(Character(Unicode.Scalar(UInt8(unit))))
            default:
                literal += String(format: "\\u%04x", unit)
            }
        }
        return literal + "\""
    }

    private func scripting(_ method: String, _ arguments: [String]) throws(DBusConnection.Failure)
        -> [DBusConnection.Value]
    {
        try bus.call(
            destination: Self.kwin, path: "/Scripting", interface: "org.kde.kwin.Scripting", method: method,
            arguments: arguments)
    }
}
