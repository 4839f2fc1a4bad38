import Foundation

/// The idle signal a Wayland compositor offers: `ext_idle_notifier_v1` (sway 1.8 and later,
/// Hyprland, most compositors of today), else KDE's `org_kde_kwin_idle` (sway 1.7 and
/// wlroots before 0.18). The compositor says when the user has not touched anything for
/// `timeout` (`idled`) and when input comes again (`resumed`); it never says the idle time
/// itself, so between the two the user counts as present.
///
/// Spoken over the Wayland wire protocol directly (`WaylandWire`), with no library: the
/// client binds a seat and the notifier and asks for one notification; afterwards each sample
/// only drains the socket.
final class WaylandIdle {
    /// Which protocol answers, for the line the monitor says once.
    let protocolName: String
    let timeout: TimeInterval
    private let socket: UnixSocket
    private var pending: [UInt8] = []
    private var idledAt: Date?

    private static let display: UInt32 = 1
    private static let registry: UInt32 = 2
    private static let setupDone: UInt32 = 3
    private static let seat: UInt32 = 4
    private static let notifier: UInt32 = 5
    private static let notification: UInt32 = 6
    private static let requestsDone: UInt32 = 7

    /// Connects to the compositor of `$WAYLAND_DISPLAY`; `nil` when it offers neither idle
    /// protocol (or no seat).
    static func connect(environment: [String: String], timeout: TimeInterval) throws(FocusProbeError) -> WaylandIdle? {
        let name = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? "wayland-0"
        let path: String
        if name.hasPrefix("/") {
            path = name
        } else {
            guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
                throw FocusProbeError("XDG_RUNTIME_DIR is not set, so the Wayland display \(name) cannot be found.")
            }
            path = runtime + "/" + name
        }
        let socket = try UnixSocket(path: path, peer: "the Wayland compositor")
        var wire = WaylandWire.message(Self.display, opcode: 1, [.uint(Self.registry)])
        wire += WaylandWire.message(Self.display, opcode: 0, [.uint(Self.setupDone)])
        try socket.send(wire)
        var pending: [UInt8] = []
        var globals: [(name: UInt32, interface: String, version: UInt32)] = []
        try roundTrip(socket, until: Self.setupDone, pending: &pending) { message in
            if message.object == Self.registry, message.opcode == 0,
                let global = WaylandWire.global(message.arguments)
            {
                globals.append(global)
            }
        }
        guard let seat = globals.first(where: { $0.interface == "wl_seat" }) else { return nil }
        var requests = WaylandWire.bind(registry: Self.registry, seat.name, "wl_seat", version: 1, id: Self.seat)
        let chosen: String
        if let ext = globals.first(where: { $0.interface == "ext_idle_notifier_v1" }) {
            chosen = "ext-idle-notify"
            requests += WaylandWire.bind(
                registry: Self.registry, ext.name, ext.interface, version: 1, id: Self.notifier)
            // get_idle_notification(new_id, timeout in ms, seat)
            requests += WaylandWire.message(
                Self.notifier, opcode: 1, [.uint(Self.notification), .uint(milliseconds(timeout)), .uint(Self.seat)])
        } else if let kde = globals.first(where: { $0.interface == "org_kde_kwin_idle" }) {
            chosen = "org_kde_kwin_idle"
            requests += WaylandWire.bind(
                registry: Self.registry, kde.name, kde.interface, version: 1, id: Self.notifier)
            // get_idle_timeout(new_id, seat, timeout in ms)
            requests += WaylandWire.message(
                Self.notifier, opcode: 0, [.uint(Self.notification), .uint(Self.seat), .uint(milliseconds(timeout))])
        } else {
            return nil
        }
        requests += WaylandWire.message(Self.display, opcode: 0, [.uint(Self.requestsDone)])
        try socket.send(requests)
        // The compositor answers a bad request with an error before it answers the sync.
        var early: [WaylandWire.Message] = []
        try roundTrip(socket, until: Self.requestsDone, pending: &pending) { early.append($0) }
        let idle = WaylandIdle(protocolName: chosen, timeout: timeout, socket: socket, pending: pending)
        for message in early { idle.apply(message, at: Date()) }
        return idle
    }

    private init(protocolName: String, timeout: TimeInterval, socket: UnixSocket, pending: [UInt8]) {
        self.protocolName = protocolName
        self.timeout = timeout
        self.socket = socket
        self.pending = pending
    }

    /// Seconds since the last input as far as the compositor tells: 0 until it says the user
    /// went idle, then the timeout and the time since.
    func idleSeconds(at now: Date) throws(FocusProbeError) -> Double {
        pending += try socket.drain()
        for message in try WaylandWire.decode(&pending) {
            if message.object == Self.display, message.opcode == 0 { throw Self.error(message) }
            apply(message, at: now)
        }
        guard let idledAt else { return 0 }
        return timeout + max(0, now.timeIntervalSince(idledAt))
    }

    /// `idled`/`idle` is event 0 of both notification interfaces, `resumed` event 1.
    private func apply(_ message: WaylandWire.Message, at now: Date) {
        guard message.object == Self.notification else { return }
        switch message.opcode {
        case 0: idledAt = idledAt ?? now
        case 1: idledAt = nil
        default: break
        }
    }

    /// How long the compositor may take to answer while the idle signal is set up. KWin 5.27
    /// reads a new client's whole executable before it answers it: 2.6 s for the 165 MB debug
    /// build on a slow 2-core machine, 4.6 s under strace. With 2 s it never answered in time, and
    /// each new try had it read the file again.
    static let setupTimeout: Duration = .seconds(15)

    private static func roundTrip(
        _ socket: UnixSocket, until callback: UInt32, pending: inout [UInt8],
        _ handle: (WaylandWire.Message) -> Void
    ) throws(FocusProbeError) {
        var done = false
        while !done {
            guard let bytes = try socket.receive(timeout: setupTimeout) else {
                throw FocusProbeError("The Wayland compositor closed the connection.", sourceEnded: true)
            }
            pending += bytes
            for message in try WaylandWire.decode(&pending) {
                if message.object == Self.display, message.opcode == 0 { throw error(message) }
                if message.object == callback {
                    done = true
                } else {
                    handle(message)
                }
            }
        }
    }

    private static func error(_ message: WaylandWire.Message) -> FocusProbeError {
        let text = WaylandWire.string(message.arguments, at: 8) ?? "no message"
        return FocusProbeError("The Wayland compositor refused the idle request: \(text).")
    }

    private static func milliseconds(_ seconds: TimeInterval) -> UInt32 {
        UInt32(clamping: Int((seconds * 1000).rounded()))
    }
}
