import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesStore

/// Writes a real source's blocks of the open days (yesterday and today) that are not written
/// yet, and what it saw that is none of the user's apps. Shared by every follower, so a block
/// is derived and written the same way whatever source saw it.
struct OpenDaysWriter {
    let store: LocalStore
    let sink: ReopeningEventSink
    let logger: Logger
    let quiet: Bool
    /// Ids committed, per day (only the open days are kept).
    private var written: [LocalDate: Set<UUID>] = [:]
    private var seenWritten: [LocalDate: (seconds: [String: Int], at: Date)] = [:]
    /// How long the active time of apps already seen may grow before it is written again (a
    /// name not seen before is written at once): a sampling source's grows every second.
    let seenInterval: TimeInterval

    init(store: LocalStore, timeZone: TimeZoneSource, logger: Logger, quiet: Bool, seenInterval: TimeInterval = 0) {
        self.store = store
        self.seenInterval = seenInterval
        // Real sources follow the real clock; what their blocks decide is decided as they come.
        let referee = ChallengeReferee(clock: SystemClock(), timeZone: timeZone, logger: logger)
        let pruner = DailyPrune(clock: SystemClock(), timeZone: timeZone, logger: logger)
        sink = ReopeningEventSink(
            store: store,
            afterRecording: {
                referee.settleSoon($0)
                pruner.runIfDue($0)
            })
        self.logger = logger
        self.quiet = quiet
    }

    /// Yesterday and today at `now`.
    static func openDays(_ deriver: BlockDeriver, now: Date) -> [LocalDate] {
        let today = deriver.calendar.day(containing: now)
        return [today.adding(days: -1), today]
    }

    /// Derives the open days from `timeline` and writes what is new. `earlier` holds, per day,
    /// the blocks a previous run wrote from time this timeline does not hold.
    mutating func write(
        _ timeline: ActivityTimeline, deriver: BlockDeriver, now: Date, earlier: [LocalDate: [String: Int]] = [:]
    ) throws {
        let days = Self.openDays(deriver, now: now)
        written = written.filter { days.contains($0.key) }
        seenWritten = seenWritten.filter { days.contains($0.key) }
        for day in days {
            let usage = deriver.derive(timeline, day: day, until: now, earlier: earlier[day] ?? [:])
            let fresh = usage.events.filter { !(written[day]?.contains($0.id) ?? false) }
            if !fresh.isEmpty {
                _ = try sink.record(fresh)
                written[day, default: []].formUnion(fresh.map(\.id))
                logger.info(
                    "\(deriver.source) blocks written", metadata: ["day": "\(day)", "count": "\(fresh.count)"])
                if !quiet {
                    FileHandle.standardOutput.write(Data(fresh.map { $0.id.uuidString + "\n" }.joined().utf8))
                }
            }
            let seen = usage.unplacedMilliseconds.mapValues { Int($0 / 1000) }.filter { $0.value > 0 }
            let last = seenWritten[day]
            let due =
                last.map { Set($0.seconds.keys) != Set(seen.keys) || abs(now.timeIntervalSince($0.at)) >= seenInterval }
                ?? !seen.isEmpty
            if due, seen != last?.seconds ?? [:] {
                try store.recordSeenApps(day: day, source: deriver.source, seconds: seen, seenAt: now)
                seenWritten[day] = (seen, now)
            }
        }
    }

    /// The blocks of the open days the store already holds from `deriver`'s source and host,
    /// per tracked app: numbers 1, 2, … present without a gap.
    func blocksInStore(_ deriver: BlockDeriver, now: Date) throws -> [LocalDate: [String: Int]] {
        var result: [LocalDate: [String: Int]] = [:]
        for day in Self.openDays(deriver, now: now) {
            let ids = Set(try store.events(in: deriver.calendar.interval(of: day)).map(\.id))
            for app in deriver.matcher.apps {
                var count = 0
                while ids.contains(
                    BlockID.make(
                        source: deriver.source, host: deriver.host, day: day.iso8601, appID: app.id, number: count + 1))
                {
                    count += 1
                }
                if count > 0 { result[day, default: [:]][app.id] = count }
            }
        }
        return result
    }
}
