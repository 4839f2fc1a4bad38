import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesStore
import Synchronization

/// The simulated monitor running inside the dashboard (`--demo`): it writes events to the local
/// store through the same path a separate monitor process uses, and says so after each write.
///
/// Its task belongs to the session's `BackgroundTasks`. `stop()` returns at once and, once it
/// has, no event of this run lands in the store any more (a write in hand ends first): the
/// dashboard may then move the clock or clear the home.
package final class DemoMonitor: Sendable {
    private struct Run: Sendable {
        var task: Task<Void, Never>
        var gate: LocalWriteGate
    }

    private let current = Mutex<Run?>(nil)

    package init() {}

    /// The demo monitor's seed for a user, when none is given: the same user sees the same day.
    package static func seed(for userID: UserID) -> UInt64 {
        userID.value.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }

    /// Starts writing events from the app clock's current time on. `onRecorded` is told after
    /// each write, `onProblem` when writes fail (and are retried) or work again (nil).
    package func start(
        store: LocalStore, clock: any AppClock, settings: UserSettings, scenario: UsageScenario, seed: UInt64,
        calendar: DayCalendar, owner: BackgroundTasks, onRecorded: @escaping @Sendable () -> Void,
        onProblem: @escaping @Sendable (String?) -> Void
    ) {
        stop()
        let source = scenario.source(
            seed: seed, apps: settings.apps, blockMinutes: settings.rules.blockMinutes, calendar: calendar,
            start: clock.now())
        let gate = LocalWriteGate()
        let runner = MonitorRunner(
            sink: GatedEventSink(sink: store, gate: gate), clock: clock,
            onRecorded: { _ in onRecorded() },
            onError: { error in
                // Refused because the demo stopped: not a problem to show.
                if error is GatedEventSink.Closed { return }
                onProblem(error.map { ($0 as? StoreError)?.message ?? String(describing: $0) })
            })
        let task = owner.start { _ = await runner.run(source) }
        current.withLock { $0 = Run(task: task, gate: gate) }
    }

    /// Stops the demo: nothing it records lands after this returns.
    package func stop() {
        guard
            let run = current.withLock({ running -> Run? in
                defer { running = nil }
                return running
            })
        else { return }
        run.gate.close()
        run.task.cancel()
    }

    /// Whether a demo is running.
    var isRunning: Bool { current.withLock { $0 != nil } }
}

/// An event sink that stops passing events on once its gate is closed (they are refused, so a
/// monitor retries them until it is cancelled, and none is counted as stored).
struct GatedEventSink: UsageEventSink {
    let sink: any UsageEventSink
    let gate: LocalWriteGate

    struct Closed: Error {}

    func record(_ events: [UsageEvent]) throws -> Int {
        guard let recorded = try gate.pass({ try sink.record(events) }) else { throw Closed() }
        return recorded
    }
}
