import Foundation

/// A real usage source as a follower reads it: what it saw over a stretch of time. ActivityWatch
/// is one; a source that watches the focused window itself (X11, sway, the terminal) would be
/// another, and the blocks come from its timelines the same way (`BlockDeriver`).
public protocol ActivitySource: Sendable {
    /// The source's name in block ids and in what it saw (`activitywatch`).
    var name: String { get }
    /// The machine it watches; part of every block's id.
    var host: String { get }
    /// Whether it knows when the user is away; without that, focused time counts.
    var knowsPresence: Bool { get }
    /// What the source knows of `interval` (the open days, up to now).
    mutating func timeline(of interval: Range<Date>, now: Date) async throws -> ActivityTimeline
}
