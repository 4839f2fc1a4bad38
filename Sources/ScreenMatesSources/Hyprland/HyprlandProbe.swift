import Foundation
import ScreenMatesMonitor

/// `--source hyprland`: the active window's class on Hyprland, from its two sockets in the
/// instance's directory (`$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE`, or
/// `/tmp/hypr/…` before Hyprland 0.40): `j/activewindow` asked once at start on
/// `.socket.sock`, then the `activewindow>>CLASS,TITLE` lines of the event socket
/// `.socket2.sock`, which Hyprland sends on every focus change and whenever the active window's
/// title or class changes. The title is read only to match a site, never stored. Idle comes
/// from the compositor's Wayland idle protocol (`WaylandIdle`, asked for again while its display
/// cannot be reached: `WaylandIdleSignal`), or the focus only (said in `following`).
public struct HyprlandProbe: FocusProbe {
    public let sourceName = "hyprland"
    private let events: UnixSocket
    /// The request socket (`.socket.sock`).
    private let requests: String
    private var pending: [UInt8] = []
    private var idle: WaylandIdleSignal
    private var active: HyprlandEvents.ActiveWindow?

    public var following: String { "the active window on Hyprland" + idle.description }
    /// Whether the compositor offers an idle signal: without one, focused time counts as active.
    public var knowsIdle: Bool { idle.idle != nil }

    /// Connects to the Hyprland instance `signature` (default `$HYPRLAND_INSTANCE_SIGNATURE`)
    /// and, for idle, to its Wayland display, asking to be told after `idleTimeout`.
    public init(
        signature: String? = nil, idleTimeout: TimeInterval = 180,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FocusProbeError) {
        guard let signature = signature ?? environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty else {
            throw FocusProbeError("HYPRLAND_INSTANCE_SIGNATURE is not set: there is no Hyprland session to follow.")
        }
        let directory = try Self.instanceDirectory(signature, environment: environment)
        events = try UnixSocket(path: directory + "/.socket2.sock", peer: "Hyprland")
        requests = directory + "/.socket.sock"
        active = try HyprlandEvents.activeWindow(
            reply: Self.request("j/activewindow", socket: directory + "/.socket.sock"))
        idle = WaylandIdleSignal(environment: environment, timeout: idleTimeout)
    }

    public mutating func sample(wallClock: Date) throws(FocusProbeError) -> FocusSample {
        pending += try events.drain()
        for line in HyprlandEvents.lines(&pending) {
            if let window = HyprlandEvents.activeWindow(event: line) { active = window }
        }
        let idleSeconds = try idle.idleSeconds(at: wallClock)
        guard let active else { return FocusSample(app: nil, idleSeconds: idleSeconds) }
        return FocusSample(app: active.windowClass, title: active.title, idleSeconds: idleSeconds)
    }

    /// Moves the active window to a special workspace of its own (out of sight, still running)
    /// or closes it (`killactive`, which asks the application to close it: no process killed).
    public mutating func act(_ act: WindowAct) throws(FocusProbeError) -> Bool {
        guard active != nil else { return true }
        let command =
            act == .minimize ? "/dispatch movetoworkspacesilent special:screenmates" : "/dispatch killactive"
        let reply = String(decoding: try Self.request(command, socket: requests), as: UTF8.self)
        guard reply.trimmingCharacters(in: .whitespacesAndNewlines) == "ok" else {
            throw FocusProbeError(
                "Hyprland did not \(act == .minimize ? "hide" : "close") the window: \(reply.prefix(200))")
        }
        return true
    }

    /// The instance's directory: under `$XDG_RUNTIME_DIR/hypr` (Hyprland 0.40 and later), else
    /// under `/tmp/hypr` (before).
    static func instanceDirectory(_ signature: String, environment: [String: String]) throws(FocusProbeError)
        -> String
    {
        let candidates =
            (environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : [$0 + "/hypr/" + signature] } ?? [])
            + ["/tmp/hypr/" + signature]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/.socket2.sock") })
        else {
            throw FocusProbeError(
                "Hyprland's sockets are not in \(candidates.joined(separator: " or ")): is Hyprland running, and is this its session?"
            )
        }
        return found
    }

    /// One request on `.socket.sock`: Hyprland answers and closes the connection.
    static func request(_ command: String, socket path: String) throws(FocusProbeError) -> [UInt8] {
        let socket = try UnixSocket(path: path, peer: "Hyprland")
        try socket.send(Array(command.utf8))
        var reply: [UInt8] = []
        while let bytes = try socket.receive(timeout: .seconds(2)) {
            reply += bytes
            guard reply.count < 1 << 20 else { break }
        }
        return reply
    }
}
