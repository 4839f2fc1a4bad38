import Foundation
import ScreenMatesMonitor

/// When a sampling follower must derive its blocks and write again, so that a sample in
/// between costs only the look at the machine.
///
/// Active time grows at most as fast as the clock, and only while something has the focus, so
/// no block can be finished before the tracked app closest to its next block has had that
/// much more time: derived at `now`, nothing new can be written before `now + remaining`. It
/// derives again then, at the next day's start, at least every `seenInterval` (the time of
/// apps seen grows), at every sample after the clock went back until it is past the latest
/// sample before (time claimed twice counts for neither: what new spans overlap shows only as
/// they pass it), and whenever the timeline's newest span is
/// another than at the last derivation (a new focus, or time again after idle or a gap: an
/// application seen for the first time is written at once). A block is so written at the very
/// sample it would be if every sample derived.
public struct SampledWriteSchedule: Sendable {
    public let seenInterval: TimeInterval
    /// The latest sample's instant (a clock set back samples earlier ones after it), and the
    /// one before the current sample.
    private var latest: Date?
    private var previous: Date?
    /// After the clock was set back: the latest instant before, which new spans may overlap.
    private var overlapEnd: Date?
    /// When to derive again at the latest, in the timeline's milliseconds (the same rounding
    /// as the spans', so a block due at a sample is never missed by a rounding).
    private var dueAt: Int64?
    /// The timeline's newest span when the blocks were last derived: its start and focus (it
    /// may have grown since; it is the same span).
    private var covered: Newest?

    private struct Newest: Equatable, Sendable {
        var start: Int64
        var app: String
        var title: String

        init?(_ span: FocusSpan?) {
            guard let span else { return nil }
            start = span.span.start
            app = span.app
            title = span.title
        }
    }

    public init(seenInterval: TimeInterval = 60) {
        self.seenInterval = seenInterval
    }

    /// Whether the blocks must be derived at `now` (a sample's instant, the timeline's newest
    /// span being `newest`).
    public mutating func isDue(_ now: Date, newest: FocusSpan?) -> Bool {
        defer {
            previous = now
            latest = max(latest ?? now, now)
        }
        if let latest, now <= latest {
            overlapEnd = max(overlapEnd ?? latest, latest)
            return true
        }
        if let overlapEnd {
            // The span just added, from the sample before, may overlap the earlier spans.
            if (previous ?? now) <= overlapEnd { return true }
            self.overlapEnd = nil
        }
        guard let dueAt, TimeSpan.milliseconds(now) < dueAt else { return true }
        return Newest(newest) != covered
    }

    /// Notes a derivation at `now` of the timeline whose newest span is `newest`: `today` is
    /// today's usage, `nextDay` the next day's start.
    public mutating func derived(
        _ now: Date, newest: FocusSpan?, today: BlockDeriver.DayUsage, blockSeconds: Int, nextDay: Date
    ) {
        let block = Int64(max(1, blockSeconds)) * 1000
        let remaining = today.trackedMilliseconds.values.map { block - $0 % block }.min() ?? block
        dueAt = min(
            TimeSpan.milliseconds(now) + min(remaining, Int64(seenInterval * 1000)), TimeSpan.milliseconds(nextDay))
        covered = Newest(newest)
    }

    /// Forgets when it derived (new settings, a write that failed): the next sample derives.
    public mutating func reset() {
        dueAt = nil
    }
}
