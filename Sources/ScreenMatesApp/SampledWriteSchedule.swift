import Foundation
import ScreenMatesCore
import ScreenMatesMonitor

/// When a sampling follower must derive its blocks and write again, so that a sample in
/// between costs only the look at the machine.
///
/// Active time grows at most as fast as the clock, and only while something has the focus, so
/// no block can be finished before the tracked app closest to its next block has had that
/// much more time: derived at `now`, nothing new can be written before `now + remaining`. It
/// derives again then, at the next day's start, when what has the focus changes (a name not
/// seen before is written at once), at least every `seenInterval` (the time of apps seen
/// grows), and after the clock went back. A block is so written within a sample of the
/// instant its last second passed, as when every sample derived.
struct SampledWriteSchedule {
    let seenInterval: TimeInterval
    private var derivedAt: Date?
    private var dueAt: Date?
    private var focus: (app: String?, title: String)?

    init(seenInterval: TimeInterval = 60) {
        self.seenInterval = seenInterval
    }

    /// Whether the blocks must be derived at `now`, having seen `sample` last.
    func isDue(_ now: Date, _ sample: FocusSample) -> Bool {
        guard let derivedAt, let dueAt, let focus, now >= derivedAt, now < dueAt else { return true }
        return focus.app != sample.app || focus.title != sample.title
    }

    /// Notes a derivation at `now`: `today` is today's usage, `nextDay` the next day's start.
    mutating func derived(
        _ now: Date, _ sample: FocusSample, today: BlockDeriver.DayUsage, blockSeconds: Int, nextDay: Date
    ) {
        let block = Int64(max(1, blockSeconds)) * 1000
        let remaining =
            today.trackedMilliseconds.values.map { block - $0 % block }.min().map { min($0, block) } ?? block
        derivedAt = now
        dueAt = min(now.addingTimeInterval(min(Double(remaining) / 1000, seenInterval)), nextDay)
        focus = (sample.app, sample.title)
    }

    /// Forgets the schedule (another source, new settings): the next sample derives.
    mutating func reset() {
        derivedAt = nil
        dueAt = nil
        focus = nil
    }
}
