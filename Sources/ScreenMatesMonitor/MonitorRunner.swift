import Foundation
import ScreenMatesCore

/// Plays a simulator against a clock and delivers each event to a sink when the app clock
/// reaches it — the path a real usage source would use.
///
/// An event is reported (`onRecorded`) only after the sink has committed it. When the sink
/// fails (disk full, database locked) the same event is retried with back-off, so nothing is
/// skipped and, since ids are stable, nothing is counted twice.
public struct MonitorRunner: Sendable {
    public let sink: any UsageEventSink
    public let clock: any AppClock
    public let onRecorded: @Sendable ([UsageEvent]) -> Void
    public let onError: @Sendable ((any Error)?) -> Void

    public init(
        sink: any UsageEventSink, clock: any AppClock, onRecorded: @escaping @Sendable ([UsageEvent]) -> Void,
        onError: @escaping @Sendable ((any Error)?) -> Void = { _ in }
    ) {
        self.sink = sink
        self.clock = clock
        self.onRecorded = onRecorded
        self.onError = onError
    }

    /// Runs until cancelled or `limit` events are recorded.
    public func run(_ simulator: UsageSimulator, limit: Int? = nil) async {
        var simulator = simulator
        var recorded = 0
        while !Task.isCancelled, limit.map({ recorded < $0 }) ?? true {
            guard let event = simulator.next() else { return }
            let wait = clock.realSeconds(until: event.occurredAt)
            if wait > 0 {
                do { try await Task.sleep(for: .seconds(wait)) } catch { return }
            }
            guard await deliver(event) else { return }
            recorded += 1
        }
    }

    /// Records one event, retrying on failure; `false` only when cancelled first.
    func deliver(_ event: UsageEvent) async -> Bool {
        var delay = 0.05
        var failing = false
        while !Task.isCancelled {
            do {
                try sink.record([event])
                if failing { onError(nil) }
                onRecorded([event])
                return true
            } catch {
                failing = true
                onError(error)
                do { try await Task.sleep(for: .seconds(delay)) } catch { return false }
                delay = min(delay * 2, 5)
            }
        }
        return false
    }
}
