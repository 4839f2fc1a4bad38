import Foundation

/// What a sampling source saw at one instant: the focused application (`nil` when nothing is
/// in use: no attached terminal, no focused window) and how long the user has not touched the
/// keyboard or mouse.
///
/// `title` is read only to match a site in a browser; it is never stored (see `FocusSpan`).
public struct FocusSample: Hashable, Sendable {
    public var app: String?
    public var title: String
    /// Seconds since the user's last input; `nil` when the source cannot tell.
    public var idleSeconds: Double?
    /// The screen saver is on or the screen is locked: nothing counts, whatever the idle time.
    public var screenOff: Bool

    public init(app: String?, title: String = "", idleSeconds: Double?, screenOff: Bool = false) {
        self.app = app
        self.title = title
        self.idleSeconds = idleSeconds
        self.screenOff = screenOff
    }
}

/// The active time of a source that samples the focus every second or so (X11, the terminal):
/// each sample stands for the time until the next one, and that time is active when an app had
/// the focus, the user had touched the keyboard or mouse within `idleThreshold`, the screen was
/// on, and the next sample came within `maxGap`.
///
/// The last rule is what keeps a suspended machine's night out: a process stopped with the
/// machine takes its next sample hours later, and that gap is nobody's usage. A clock set back
/// (a sample before the previous one) starts afresh, counting nothing in between. Spans only
/// ever grow, so the blocks derived from them do too (see `BlockDeriver`).
public struct SampledTimeline: Sendable {
    public let idleThreshold: Double
    public let maxGap: Double
    public private(set) var focus: [FocusSpan] = []
    private var last: (at: Int64, sample: FocusSample)?

    public init(idleThreshold: Double, maxGap: Double) {
        self.idleThreshold = idleThreshold
        self.maxGap = maxGap
    }

    /// Whether a sample counts as the user being there, at that app.
    public func isActive(_ sample: FocusSample) -> Bool {
        guard let app = sample.app, !app.isEmpty, !sample.screenOff else { return false }
        return (sample.idleSeconds ?? 0) < idleThreshold
    }

    /// Adds what was seen at `instant`.
    public mutating func add(_ sample: FocusSample, at instant: Date) {
        let now = TimeSpan.milliseconds(instant)
        defer { last = (now, sample) }
        guard let last, now > last.at, Double(now - last.at) <= maxGap * 1000, isActive(last.sample),
            let app = last.sample.app
        else { return }
        let span = TimeSpan(start: last.at, end: now)
        if let index = focus.indices.last, focus[index].span.end == span.start, focus[index].app == app,
            focus[index].title == last.sample.title
        {
            focus[index].span.end = span.end
        } else {
            focus.append(FocusSpan(span: span, app: app, title: last.sample.title))
        }
    }

    /// Forgets the spans that end before `instant` (days no longer open).
    public mutating func drop(endingBefore instant: Date) {
        let limit = TimeSpan.milliseconds(instant)
        focus.removeAll { $0.span.end < limit }
    }

    /// The timeline to derive blocks from: idle time is already left out, so there is no
    /// separate presence.
    public var timeline: ActivityTimeline { ActivityTimeline(focus: focus, present: nil) }
}
