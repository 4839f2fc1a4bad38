import Foundation
import ScreenMatesCore

/// Turns what a usage source saw on one day into that day's blocks: one block for every full
/// block length of one tracked app's *active* time (its window focused and the user present).
///
/// A pure function of the day's focus and presence, taken as sets of instants: the same data
/// cut into any slices, in any order, read any number of times, gives the same blocks with the
/// same ids. Time two applications both claim (overlapping focus, which a real source never
/// reports) counts for neither, so the blocks never stand for more time than passed. Active
/// time accumulates per app within the day; the remainder never carries into the next day.
/// Since sources only ever add focus and presence, a day's blocks only grow as it is derived
/// again: a block once written stays right.
public struct BlockDeriver: Sendable {
    public let source: String
    public let host: String
    public let blockSeconds: Int
    public let calendar: DayCalendar
    public let matcher: AppMatcher

    public init(source: String, host: String, blockSeconds: Int, calendar: DayCalendar, matcher: AppMatcher) {
        self.source = source
        self.host = host
        self.blockSeconds = max(1, blockSeconds)
        self.calendar = calendar
        self.matcher = matcher
    }

    /// One day's derivation.
    public struct DayUsage: Hashable, Sendable {
        public var day: LocalDate
        /// The blocks, each stamped with the instant its last second of active time passed.
        public var events: [UsageEvent]
        /// Active milliseconds per tracked app id.
        public var trackedMilliseconds: [String: Int64]
        /// Active milliseconds per application seen that matches no tracked app (by reported
        /// name; titles are never kept).
        public var unplacedMilliseconds: [String: Int64]
    }

    /// The blocks of `day` from `timeline`, counting only time before `horizon` (now: a source
    /// never counts time that has not passed, whatever a clock or a hostile duration says).
    ///
    /// `earlier` holds, per tracked app id, the blocks of this day an earlier run already wrote
    /// from time `timeline` does not hold (a sampling source restarted: what it saw before is
    /// gone with the process); this timeline's blocks are numbered after them.
    public func derive(
        _ timeline: ActivityTimeline, day: LocalDate, until horizon: Date, earlier: [String: Int] = [:]
    ) -> DayUsage {
        let interval = calendar.interval(of: day)
        let window = TimeSpan(
            start: TimeSpan.milliseconds(interval.lowerBound),
            end: min(TimeSpan.milliseconds(interval.upperBound), TimeSpan.milliseconds(horizon)))
        var usage = DayUsage(day: day, events: [], trackedMilliseconds: [:], unplacedMilliseconds: [:])
        guard !window.isEmpty else { return usage }

        // Focus per matched key, as unions within the day.
        var spansByKey: [AppMatcher.Match: [TimeSpan]] = [:]
        for focus in timeline.focus {
            guard let span = focus.span.clipped(to: window) else { continue }
            spansByKey[matcher.match(app: focus.app, title: focus.title), default: []].append(span)
        }
        let unions = spansByKey.mapValues(TimeSpan.union)
        var owned = Self.uncontested(unions)
        if let present = timeline.present {
            let presence = TimeSpan.union(present.compactMap { $0.clipped(to: window) })
            owned = owned.mapValues { TimeSpan.intersection($0, presence) }
        }

        let blockMilliseconds = Int64(blockSeconds) * 1000
        let lastMoment = window.end - 1
        for (key, spans) in owned {
            let total = TimeSpan.total(spans)
            guard total > 0 else { continue }
            switch key {
            case .unplaced(let name):
                usage.unplacedMilliseconds[name, default: 0] += total
            case .tracked(let app):
                usage.trackedMilliseconds[app.id, default: 0] += total
                var number = 0
                let offset = max(0, earlier[app.id] ?? 0)
                var accumulated: Int64 = 0
                for span in spans {
                    var cursor = span.start
                    while accumulated + (span.end - cursor) >= blockMilliseconds * Int64(number + 1) {
                        let needed = blockMilliseconds * Int64(number + 1) - accumulated
                        cursor += needed
                        accumulated += needed
                        number += 1
                        usage.events.append(
                            UsageEvent(
                                id: BlockID.make(
                                    source: source, host: host, day: day.iso8601, appID: app.id,
                                    number: offset + number),
                                appID: app.id, category: app.category, seconds: blockSeconds,
                                // The instant the block's last millisecond passed, inside the day.
                                occurredAt: TimeSpan.date(min(cursor - 1, lastMoment))))
                    }
                    accumulated += span.end - cursor
                }
            }
        }
        usage.events.sort(by: UsageEvent.inLedgerOrder)
        return usage
    }

    /// Each key's spans less the instants another key also claims.
    static func uncontested(_ unions: [AppMatcher.Match: [TimeSpan]]) -> [AppMatcher.Match: [TimeSpan]] {
        guard unions.count > 1 else { return unions }
        // Sweep: +1 at each start, -1 at each end; where the count is 1, the one key open owns it.
        var edges: [(at: Int64, delta: Int, key: AppMatcher.Match)] = []
        for (key, spans) in unions {
            for span in spans {
                edges.append((span.start, 1, key))
                edges.append((span.end, -1, key))
            }
        }
        edges.sort { $0.at < $1.at }
        var open: [AppMatcher.Match: Int] = [:]
        var result: [AppMatcher.Match: [TimeSpan]] = [:]
        var index = 0
        var previous: Int64 = edges.first?.at ?? 0
        while index < edges.count {
            let at = edges[index].at
            if at > previous, open.count == 1, let owner = open.keys.first {
                result[owner, default: []].append(TimeSpan(start: previous, end: at))
            }
            while index < edges.count, edges[index].at == at {
                let edge = edges[index]
                let count = (open[edge.key] ?? 0) + edge.delta
                open[edge.key] = count > 0 ? count : nil
                index += 1
            }
            previous = at
        }
        return result.mapValues(TimeSpan.union)
    }
}
