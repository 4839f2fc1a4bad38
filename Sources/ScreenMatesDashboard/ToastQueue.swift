import ScreenMatesUI

/// The notices waiting to be shown as toasts, one after another, each for a few seconds (the
/// last of them fading). A value moved on by the instants it is given, so its timing is tested
/// without waiting.
///
/// While toasts cannot be seen (another screen is open) the next one waits its turn: a toast
/// never hides another screen, and none is lost.
struct ToastQueue: Hashable, Sendable {
    /// How long a toast stays, in real seconds, and how much of that it spends fading.
    static let toastSeconds = 5.0
    static let fadeSeconds = 1.0

    private struct Shown: Hashable, Sendable {
        var line: DashboardContent.NoticeLine
        var until: ContinuousClock.Instant
    }

    private var waiting: [DashboardContent.NoticeLine] = []
    private var shown: Shown?
    /// Whether a toast can be seen now (the dashboard is on screen).
    var visible = true

    init() {}

    /// Queues notices to show after those already waiting.
    mutating func add(_ lines: [DashboardContent.NoticeLine]) {
        waiting += lines
    }

    /// Moves on to `instant`: a toast whose time is up goes, and the next one starts if it can
    /// be seen.
    mutating func advance(to instant: ContinuousClock.Instant) {
        if let shown, instant >= shown.until { self.shown = nil }
        if shown == nil, visible, !waiting.isEmpty {
            shown = Shown(line: waiting.removeFirst(), until: instant + .seconds(Self.toastSeconds))
        }
    }

    /// The toast on screen at `instant` (after `advance(to:)`), if any.
    func toast(at instant: ContinuousClock.Instant) -> DashboardContent.Toast? {
        guard let shown, instant < shown.until else { return nil }
        return DashboardContent.Toast(notice: shown.line, fading: instant >= shown.until - .seconds(Self.fadeSeconds))
    }

    /// Real seconds from `instant` until the toasts change (one starts fading, goes, or the next
    /// is due), or nil when nothing will change by itself.
    func secondsUntilChange(at instant: ContinuousClock.Instant) -> Double? {
        guard let shown else { return waiting.isEmpty || !visible ? nil : 0 }
        let fadeAt = shown.until - .seconds(Self.fadeSeconds)
        let next = instant < fadeAt ? fadeAt : shown.until
        return max(0, (next - instant) / .seconds(1))
    }
}
