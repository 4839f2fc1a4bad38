import Foundation
import ScreenMatesMonitor

/// `--source sway`: the focused window's application on sway, from its IPC (`$SWAYSOCK`) — the
/// Wayland `app_id` (`foot`, `firefox`) or, for an X11 client under Xwayland, its class — and
/// its title, only to match a site; the idle signal from the compositor's Wayland idle protocol
/// (`WaylandIdle`, asked for again while its display cannot be reached: `WaylandIdleSignal`), or
/// the focus only where it offers none (said in `following`).
///
/// It subscribes to window and workspace events rather than asking: a focus or title change
/// carries the window itself; anything else (a window closed, an empty workspace focused) is
/// answered by reading the tree once. A sample drains the events that came, so one with no
/// change costs a `recv` that finds nothing.
public struct SwayProbe: FocusProbe {
    public let sourceName = "sway"
    private let name: String
    private var ipc: SwayIPC
    private var idle: WaylandIdleSignal
    private var focus: SwayNode?

    public var following: String { "the focused window on \(name)" + idle.description }
    /// Whether the compositor offers an idle signal: without one, focused time counts as active.
    public var knowsIdle: Bool { idle.idle != nil }
    /// The idle protocol in use (`ext-idle-notify`, `org_kde_kwin_idle`), or `nil`.
    public var idleProtocol: String? { idle.idle?.protocolName }

    /// Connects to sway at `socket` (default `$SWAYSOCK`) and, for idle, to its Wayland display
    /// (`$WAYLAND_DISPLAY` in `$XDG_RUNTIME_DIR`) asking to be told after `idleTimeout`.
    public init(
        socket: String? = nil, idleTimeout: TimeInterval = 180,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FocusProbeError) {
        guard let path = socket ?? environment["SWAYSOCK"], !path.isEmpty else {
            throw FocusProbeError("SWAYSOCK is not set: there is no sway session to follow.")
        }
        ipc = try SwayIPC(path: path)
        let version = try? SwayNode.decodeVersion(try ipc.request(.getVersion))
        idle = WaylandIdleSignal(environment: environment, timeout: idleTimeout)
        name = version.map { "sway \($0)" } ?? "sway"
        focus = try Self.focusedNode(ipc)
    }

    public mutating func sample(wallClock: Date) throws(FocusProbeError) -> FocusSample {
        var readTree = false
        for message in try ipc.drainEvents() {
            switch SwayIPC.Kind(rawValue: message.type) {
            case .windowEvent:
                guard let event = try? JSONDecoder().decode(SwayWindowEvent.self, from: Data(message.payload)) else {
                    readTree = true
                    continue
                }
                switch event.change {
                case "focus":
                    focus = event.container
                case "title" where event.container.focused:
                    focus = event.container
                case "close", "move":
                    // The focus moves on without a focus event when nothing else is left there.
                    readTree = readTree || event.container.id == focus?.id
                default:
                    break
                }
            case .workspaceEvent:
                readTree = true
            case .shutdownEvent:
                throw FocusProbeError("sway is shutting down.", sourceEnded: true)
            default:
                break
            }
        }
        if readTree { focus = try Self.focusedNode(ipc) }
        let idleSeconds = try idle.idleSeconds(at: wallClock)
        guard let focus, let app = focus.application else {
            return FocusSample(app: nil, idleSeconds: idleSeconds)
        }
        return FocusSample(app: app, title: focus.name ?? "", idleSeconds: idleSeconds)
    }

    /// Moves the focused window to the scratchpad (out of sight, still running) or closes it
    /// (sway's `kill`: the application is asked to close the window, as from its close button).
    public mutating func act(_ act: WindowAct) throws(FocusProbeError) -> Bool {
        guard let id = focus?.id else { return true }
        let command = act == .minimize ? "[con_id=\(id)] move scratchpad" : "[con_id=\(id)] kill"
        let reply = String(decoding: try ipc.request(.runCommand, command), as: UTF8.self)
        guard reply.contains("\"success\": true") || reply.contains("\"success\":true") else {
            throw FocusProbeError(
                "sway did not \(act == .minimize ? "hide" : "close") the window: \(reply.prefix(200))")
        }
        return true
    }

    private static func focusedNode(_ ipc: SwayIPC) throws(FocusProbeError) -> SwayNode? {
        try SwayNode.decode(try ipc.request(.getTree), what: "tree").focusedNode
    }
}

extension SwayNode {
    /// `get_version`'s `human_readable` (`1.7`).
    static func decodeVersion(_ payload: [UInt8]) throws -> String {
        struct Version: Decodable {
            var humanReadable: String
            enum CodingKeys: String, CodingKey {
                case humanReadable = "human_readable"
            }
        }
        return try JSONDecoder().decode(Version.self, from: Data(payload)).humanReadable
    }
}
