import Foundation

/// A stretch of time during which one application had the focus, as a usage source reports it.
///
/// `title` is the window's title: it is read only to match an app (a site in a browser) and
/// never stored, logged or shown. It lives only as long as the span it came with.
public struct FocusSpan: Hashable, Sendable {
    public var span: TimeSpan
    /// The application as the source names it: `firefox`, `Code`, `org.gnome.Nautilus`.
    public var app: String
    public var title: String

    public init(span: TimeSpan, app: String, title: String = "") {
        self.span = span
        self.app = app
        self.title = title
    }
}

/// What a usage source knows about a stretch of time: which application had the focus when,
/// and when the user was there.
public struct ActivityTimeline: Sendable {
    public var focus: [FocusSpan]
    /// When the user was at the machine (not away). `nil` when the source has no such signal:
    /// then focus alone counts.
    public var present: [TimeSpan]?

    public init(focus: [FocusSpan], present: [TimeSpan]?) {
        self.focus = focus
        self.present = present
    }
}
