import Foundation
import ScreenMatesCore

/// Plays a usage source into a sink — the path a real usage source would use.
///
/// An event is reported (`onRecorded`) only after the sink has committed it. When the sink
/// fails (disk full, database locked, read-only) the same events are retried with back-off,
/// so nothing is skipped and, since ids are stable, nothing is counted twice.
public struct MonitorRunner: Sendable {
    /// How fast events are made.
    public enum Pace: Sendable, Equatable {
        /// Each event when the app clock reaches its time: a realistic day.
        case appClock
        /// So many events per real second, stamped with the app clock's time.
        case perSecond(Double)
        /// As fast as the store takes them, many per transaction.
        case unlimited
    }

    public let sink: any UsageEventSink
    public let clock: any AppClock
    public let onRecorded: @Sendable ([UsageEvent]) -> Void
    public let onError: @Sendable ((any Error)?) -> Void
    /// Told, on the app clock's pace, of an event the runner waits for and the real seconds
    /// until it is due, so a monitor that sleeps for a while can say why.
    public let onWaiting: @Sendable (UsageEvent, Double) -> Void

    /// The most events committed in one transaction when running behind or unlimited.
    public static let batchLimit = 256

    public init(
        sink: any UsageEventSink, clock: any AppClock, onRecorded: @escaping @Sendable ([UsageEvent]) -> Void,
        onError: @escaping @Sendable ((any Error)?) -> Void = { _ in },
        onWaiting: @escaping @Sendable (UsageEvent, Double) -> Void = { _, _ in }
    ) {
        self.sink = sink
        self.clock = clock
        self.onRecorded = onRecorded
        self.onError = onError
        self.onWaiting = onWaiting
    }

    /// Runs until cancelled, the source runs dry, or `limit` events are recorded. Returns the
    /// number recorded.
    @discardableResult
    public func run(_ source: some UsageSource, pace: Pace = .appClock, limit: Int? = nil) async -> Int {
        var source = source
        var recorded = 0
        let started = ContinuousClock.now
        while !Task.isCancelled {
            let room = limit.map { $0 - recorded } ?? Int.max
            guard room > 0 else { break }
            var batch: [UsageEvent] = []
            switch pace {
            case .appClock:
                guard let event = source.next(now: clock.now()) else { return recorded }
                let wait = clock.realSeconds(until: event.occurredAt)
                if wait > 0 {
                    onWaiting(event, wait)
                    do { try await Task.sleep(for: .seconds(wait)) } catch { return recorded }
                }
                batch = [event]
            case .perSecond(let rate):
                // Event number n is due n / rate seconds after the start; take every event that
                // is due (a batch when running behind), or sleep until the next one is.
                let elapsed = (ContinuousClock.now - started) / .seconds(1)
                let due = min(room, Int((elapsed * rate).rounded(.down)) + 1 - recorded, Self.batchLimit)
                if due <= 0 {
                    let next = Double(recorded) / rate - elapsed
                    do { try await Task.sleep(for: .seconds(max(0.000_1, next))) } catch { return recorded }
                    continue
                }
                batch = take(due, from: &source)
            case .unlimited:
                batch = take(min(room, Self.batchLimit), from: &source)
            }
            guard !batch.isEmpty else { return recorded }
            guard await deliver(batch) else { return recorded }
            recorded += batch.count
        }
        return recorded
    }

    private func take(_ count: Int, from source: inout some UsageSource) -> [UsageEvent] {
        var batch: [UsageEvent] = []
        let now = clock.now()
        while batch.count < count, let event = source.next(now: now) { batch.append(event) }
        return batch
    }

    /// Records a batch, retrying on failure; `false` only when cancelled first.
    func deliver(_ events: [UsageEvent]) async -> Bool {
        var delay = 0.05
        var failing = false
        while !Task.isCancelled {
            do {
                try sink.record(events)
                if failing { onError(nil) }
                onRecorded(events)
                return true
            } catch {
                failing = true
                onError(error)
                do { try await Task.sleep(for: .seconds(delay)) } catch { return false }
                delay = min(delay * 2, 2)
            }
        }
        return false
    }
}
