import Foundation
import ScreenMatesMonitor

/// Follows one machine's window and AFK buckets and hands out timelines for the open days.
///
/// ActivityWatch grows a bucket's newest event in place (a heartbeat merged into it keeps its
/// id and lengthens it) and appends new ones, so after a full read of the open days each poll
/// asks only for what overlaps the newest event onwards and folds it in by id. Every so often,
/// and after any error, it reads everything again, so an event inserted into the past or a
/// server restarted (which renumbers events) is seen. What it hands out is the data, not a sum:
/// the blocks are derived from it afresh each time (see `BlockDeriver`).
public struct ActivityWatchReader: ActivitySource {
    public let client: ActivityWatchClient
    public let selection: ActivityWatchSelection
    /// Full reads at least this often.
    public var fullReadInterval: TimeInterval = 300

    private var window = BucketCache()
    private var afk = BucketCache()
    private var lastFullRead: Date?
    private var coveredFrom: Date?
    /// Events that could not be read, over the reader's life.
    public private(set) var skippedEvents = 0

    public var name: String { "activitywatch" }
    public var host: String { selection.host }
    public var knowsPresence: Bool { selection.afk != nil }

    public init(client: ActivityWatchClient, selection: ActivityWatchSelection) {
        self.client = client
        self.selection = selection
    }

    /// The timeline of `interval` (from the start of the oldest open day to now).
    public mutating func timeline(of interval: Range<Date>, now: Date) async throws(ActivityWatchError)
        -> ActivityTimeline
    {
        let coversInterval = coveredFrom.map { $0 <= interval.lowerBound } ?? false
        let fullReadDue = lastFullRead.map { now.timeIntervalSince($0) >= fullReadInterval || now < $0 } ?? true
        let full = !coversInterval || fullReadDue
        if full {
            window = BucketCache()
            afk = BucketCache()
        }
        try await read(selection.window.id, into: \.window, interval: interval, full: full)
        if let bucket = selection.afk {
            try await read(bucket.id, into: \.afk, interval: interval, full: full)
        }
        if full {
            lastFullRead = now
            coveredFrom = interval.lowerBound
        }
        window.drop(endingBefore: interval.lowerBound)
        afk.drop(endingBefore: interval.lowerBound)
        let focus = window.events.values.compactMap { event -> FocusSpan? in
            guard let app = event.app, let span = TimeSpan(start: event.timestamp, seconds: event.duration) else {
                return nil
            }
            return FocusSpan(span: span, app: app, title: event.title ?? "")
        }
        let present: [TimeSpan]? =
            selection.afk == nil
            ? nil
            : afk.events.values.compactMap { event in
                event.status == "not-afk" ? TimeSpan(start: event.timestamp, seconds: event.duration) : nil
            }
        return ActivityTimeline(focus: focus, present: present)
    }

    private mutating func read(
        _ bucket: String, into cache: WritableKeyPath<ActivityWatchReader, BucketCache>, interval: Range<Date>,
        full: Bool
    ) async throws(ActivityWatchError) {
        // The newest event may have grown since: read from its start (a second earlier, for
        // rounding), and everything after.
        let from = full ? interval.lowerBound : max(interval.lowerBound, self[keyPath: cache].newestStart - 1)
        guard from < interval.upperBound else { return }
        let (events, skipped) = try await client.events(bucket: bucket, in: from..<interval.upperBound)
        skippedEvents += skipped
        for event in events { self[keyPath: cache].fold(event) }
    }
}

/// One bucket's events by id; an event read again is merged with what was read before (a
/// reply may cut an event at the start of the range asked for).
struct BucketCache: Sendable {
    private(set) var events: [Int64: ActivityWatchEvent] = [:]
    private(set) var newestStart = Date.distantPast

    mutating func fold(_ event: ActivityWatchEvent) {
        // An event without an id (no server sends one) is known by its start instead.
        let id =
            event.id ?? (Int64.min + (Int64(exactly: (event.timestamp.timeIntervalSince1970 * 1000).rounded()) ?? 0))
        if let known = events[id] {
            let start = min(known.timestamp, event.timestamp)
            let end = max(
                known.timestamp.addingTimeInterval(known.duration), event.timestamp.addingTimeInterval(event.duration))
            var merged = event
            merged.timestamp = start
            merged.duration = end.timeIntervalSince(start)
            events[id] = merged
        } else {
            events[id] = event
        }
        newestStart = max(newestStart, event.timestamp)
    }

    mutating func drop(endingBefore instant: Date) {
        events = events.filter { $0.value.timestamp.addingTimeInterval($0.value.duration) >= instant }
    }
}
