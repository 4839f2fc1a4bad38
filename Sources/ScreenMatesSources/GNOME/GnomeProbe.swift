import Foundation
import ScreenMatesMonitor

/// `--source gnome`: the focused window's application on GNOME Shell — its Wayland `app_id` or,
/// under Xwayland, its X11 class — and its title (only to match a site), from ScreenMates' own
/// GNOME Shell extension on the session bus (`org.screenmates.FocusedWindow`); the idle time from
/// Mutter's `org.gnome.Mutter.IdleMonitor`.
///
/// GNOME Shell tells no ordinary program which window has the focus under Wayland: only code
/// running inside the shell knows, hence the extension (in `assets/gnome-shell-extension`), which
/// shares nothing but the focused window's application id and title. Each sample is two calls on
/// the session bus through libdbus (`DBusConnection`), no program started.
///
/// A challenge's act is one more call (`Minimize(s)`, `Close(s)`) naming the application the last
/// sample found: the extension acts only while that application's window still has the focus, so a
/// window that came to the front in between is never the one moved. An extension from before these
/// methods answers `UnknownMethod`: `act` then answers false, and the notice says to update it.
public struct GnomeProbe: FocusProbe {
    public let sourceName = "gnome"
    public let following: String
    private let bus: DBusConnection
    /// Whether Mutter answers for the idle time: without it, focused time counts as active.
    public let knowsIdle: Bool
    /// The application whose window the last sample found focused (empty: none).
    private var focusedApp = ""
    /// Whether the extension running is one from before `Minimize` and `Close`.
    private var extensionOnlyTells = false

    static let extensionUUID = "screenmates@screenmates.local"
    static let service = "org.screenmates.FocusedWindow"
    static let path = "/org/screenmates/FocusedWindow"

    /// Connects to the session bus of `environment` and asks the extension once.
    /// `extensionDirectory` is where the extension's folders are (`…/gnome-shell-extension`), for
    /// the message that says how to install it. `replyTimeout` is how long a call waits for the
    /// shell (a sample a second waits one; a shell that late is said to have not answered, and
    /// asked again at the next sample).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, extensionDirectory: String? = nil,
        replyTimeout: Duration = .seconds(1)
    ) throws(FocusProbeError) {
        bus = try DBusConnection(
            environment: environment, timeoutMilliseconds: Int32(clamping: Int64(replyTimeout / .milliseconds(1))))
        do {
            _ = try Self.focused(bus)
        } catch {
            guard error.nobodyThere else {
                throw FocusProbeError("GNOME Shell's ScreenMates extension did not answer: \(error.message)")
            }
            guard let version = Self.shellVersion(bus) else {
                throw FocusProbeError("GNOME Shell is not on the session bus: there is no GNOME session to follow.")
            }
            throw FocusProbeError(Self.missingExtension(extensionDirectory, shellVersion: version))
        }
        knowsIdle = (try? Self.idleMilliseconds(bus)) != nil
        following =
            "the focused window on GNOME Shell, through ScreenMates' extension"
            + (knowsIdle ? " (idle from Mutter)" : " (Mutter gives no idle time here: focused time counts as active)")
    }

    public mutating func sample(wallClock: Date) throws(FocusProbeError) -> FocusSample {
        let focus: (app: String, title: String)
        do {
            focus = try Self.focused(bus)
        } catch {
            if error.disconnected || error.nobodyThere {
                throw FocusProbeError(
                    "GNOME Shell (or its ScreenMates extension) has gone from the session bus.", sourceEnded: true)
            }
            throw FocusProbeError("GNOME Shell's ScreenMates extension did not answer: \(error.message)")
        }
        focusedApp = focus.app
        let idleSeconds = knowsIdle ? (try? Self.idleMilliseconds(bus)).map { Double($0) / 1000 } : nil
        guard !focus.app.isEmpty else { return FocusSample(app: nil, idleSeconds: idleSeconds) }
        return FocusSample(app: focus.app, title: focus.title, idleSeconds: idleSeconds)
    }

    /// Minimizes the focused window, or asks its application to close it, through the extension,
    /// if the application the last sample found still has the focus.
    public mutating func act(_ act: WindowAct) async throws(FocusProbeError) -> Bool {
        guard !focusedApp.isEmpty else { throw FocusProbeError("No window has the focus on GNOME Shell.") }
        let answer: [DBusConnection.Value]
        do {
            answer = try bus.call(
                destination: Self.service, path: Self.path, interface: Self.service,
                method: act == .minimize ? "Minimize" : "Close", arguments: [focusedApp])
        } catch {
            if error.name == "org.freedesktop.DBus.Error.UnknownMethod" {
                extensionOnlyTells = true
                return false
            }
            throw FocusProbeError("GNOME Shell's ScreenMates extension did not answer: \(error.message)")
        }
        extensionOnlyTells = false
        guard answer.first == .bool(true) else {
            throw FocusProbeError(
                "GNOME Shell left it as it was: \(focusedApp) no longer has the focus, or its window cannot be "
                    + (act == .minimize ? "minimized." : "closed."))
        }
        return true
    }

    public var whyWindowStays: String {
        extensionOnlyTells
            ? "The ScreenMates extension running in GNOME Shell is an older one that can only say so: the window "
                + "stays. Install this version's extension and log out and in to have the window moved."
            : "This desktop (\(sourceName)) lets ScreenMates only say so: the window stays."
    }

    private static func focused(_ bus: DBusConnection) throws(DBusConnection.Failure) -> (app: String, title: String) {
        let values = try bus.call(destination: service, path: path, interface: service, method: "Get")
        guard values.count == 2, let app = values[0].text, let title = values[1].text else {
            throw DBusConnection.Failure(
                name: "org.freedesktop.DBus.Error.InvalidSignature", message: "Get() answered \(values), not (ss)")
        }
        return (app, title)
    }

    private static func idleMilliseconds(_ bus: DBusConnection) throws(DBusConnection.Failure) -> UInt64 {
        let values = try bus.call(
            destination: "org.gnome.Mutter.IdleMonitor", path: "/org/gnome/Mutter/IdleMonitor/Core",
            interface: "org.gnome.Mutter.IdleMonitor", method: "GetIdletime")
        guard let milliseconds = values.first?.number else {
            throw DBusConnection.Failure(
                name: "org.freedesktop.DBus.Error.InvalidSignature", message: "GetIdletime() answered \(values)")
        }
        return milliseconds
    }

    /// GNOME Shell's version (`43.9`), or nil when no GNOME Shell is on the bus.
    private static func shellVersion(_ bus: DBusConnection) -> String? {
        let values = try? bus.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.freedesktop.DBus.Properties",
            method: "Get", arguments: ["org.gnome.Shell", "ShellVersion"])
        return values?.first?.text
    }

    /// What to do when the extension does not answer: why GNOME needs it, and the commands, with
    /// the folder for this GNOME Shell (`43/` before 45, `45/` from 45 on, which loads extensions as
    /// modules).
    static func missingExtension(_ directory: String?, shellVersion: String) -> String {
        let major = Int(shellVersion.prefix { $0.isNumber }) ?? 45
        let folder = (directory ?? "assets/gnome-shell-extension") + "/\(major >= 45 ? 45 : 43)/\(extensionUUID)"
        return
            "GNOME Shell's ScreenMates extension is not running. Under Wayland GNOME tells no program which window "
            + "has the focus; ScreenMates' small extension does, sharing only the focused window's application id and "
            + "title on your session bus. For GNOME Shell \(shellVersion): "
            + "`mkdir -p ~/.local/share/gnome-shell/extensions && cp -r \(folder) ~/.local/share/gnome-shell/extensions/`, "
            + "log out and in again, then `gnome-extensions enable \(extensionUUID)` "
            + "(`gnome-extensions info \(extensionUUID)` says whether it is installed and enabled)."
    }
}
