/// When to look again after a file notice: one schedule for everything that watches a SQLite
/// file written by another process (the dashboard's local database, the shared group-store
/// file). The notice comes when the write-ahead log is written, which can be a moment before
/// the commit is visible to readers: the first look may find nothing new, a later one does. A
/// commit slower than the last delay is caught by the watcher's own safety interval.
public struct RecheckSchedule: Hashable, Sendable {
    /// The delays after a notice at which to look (the first at once).
    public static let afterNotice: [Duration] = [
        .zero, .milliseconds(20), .milliseconds(100), .milliseconds(400), .milliseconds(1000),
    ]

    private var pending: [ContinuousClock.Instant] = []

    public init() {}

    /// A notice came at `instant`: the looks start again from it.
    public mutating func noticed(at instant: ContinuousClock.Instant) {
        pending = Self.afterNotice.map { instant + $0 }
    }

    /// Whether a look is due at `instant`; the looks due are used up.
    public mutating func take(at instant: ContinuousClock.Instant) -> Bool {
        let due = pending.contains { $0 <= instant }
        pending.removeAll { $0 <= instant }
        return due
    }

    /// The next look still to come, if any.
    public var next: ContinuousClock.Instant? { pending.min() }

    /// How many looks are still to come.
    public var count: Int { pending.count }
}
