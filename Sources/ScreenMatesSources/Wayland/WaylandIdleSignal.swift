import Foundation
import ScreenMatesMonitor

/// The idle signal of a compositor followed through its own IPC (sway, Hyprland): its Wayland
/// idle protocol (`WaylandIdle`), asked for at start and, while its display could not be reached
/// (a monitor started with the session, before the compositor's Wayland socket was there), again
/// every `retryInterval`. A compositor that was reached and offers no idle protocol is not asked
/// again: focused time counts as active there.
struct WaylandIdleSignal {
    static let retryInterval: TimeInterval = 60

    private(set) var idle: WaylandIdle?
    private let environment: [String: String]
    private let timeout: TimeInterval
    /// When the display was last tried and could not be reached; nil once reached (or when there
    /// is no Wayland display to try).
    private var unreachedAt: Date?

    init(environment: [String: String], timeout: TimeInterval, now: Date = Date()) {
        self.environment = environment
        self.timeout = timeout
        guard environment["WAYLAND_DISPLAY"] != nil else { return }
        do {
            idle = try WaylandIdle.connect(environment: environment, timeout: timeout)
        } catch {
            unreachedAt = now
        }
    }

    /// What the probe's `following` says of idle.
    var description: String {
        idle.map { " (idle from \($0.protocolName))" }
            ?? (unreachedAt == nil
                ? " (it offers no idle signal here: focused time counts as active)"
                : " (its Wayland display cannot be reached yet: focused time counts as active)")
    }

    /// Seconds since the user's last input at `now`, if the compositor says; the display is tried
    /// again first when it could not be reached `retryInterval` ago (or the clock went back).
    mutating func idleSeconds(at now: Date) throws(FocusProbeError) -> Double? {
        if idle == nil, let unreachedAt,
            now.timeIntervalSince(unreachedAt) >= Self.retryInterval || now < unreachedAt
        {
            do {
                idle = try WaylandIdle.connect(environment: environment, timeout: timeout)
                self.unreachedAt = nil
            } catch {
                self.unreachedAt = now
            }
        }
        return try idle?.idleSeconds(at: now)
    }
}
