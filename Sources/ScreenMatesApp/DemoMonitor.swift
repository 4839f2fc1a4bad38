import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesStore
import Synchronization

/// The simulated monitor running inside the dashboard (`--demo`): it writes events to the local
/// store through the same path a separate monitor process uses, then wakes the screen.
public final class DemoMonitor: Sendable {
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let problem: Mutex<String?> = Mutex(nil)

    public init() {}

    /// Starts writing events from the app clock's current time on.
    public func start(
        store: LocalStore, clock: any AppClock, settings: UserSettings, scenario: UsageScenario, seed: UInt64,
        calendar: DayCalendar, wake: @escaping @Sendable () -> Void
    ) {
        let source = scenario.source(
            seed: seed, apps: settings.apps, blockMinutes: settings.rules.blockMinutes, calendar: calendar,
            start: clock.now())
        let runner = MonitorRunner(
            sink: store, clock: clock,
            onRecorded: { _ in wake() },
            onError: { [self] error in
                problem.withLock { $0 = error.map { ($0 as? StoreError)?.message ?? String(describing: $0) } }
                wake()
            })
        let newTask = Task.detached { _ = await runner.run(source) }
        task.withLock { $0 = newTask }
    }

    public func stop() {
        task.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    /// Stops the demo and waits (on a thread outside the tasks' pool) until the write in hand,
    /// if any, has ended, so nothing it recorded lands after this returns.
    public func stopAndWait(timeout: Double = 2) {
        let running = task.withLock { $0 }
        stop()
        if let running { _ = running.waitForEnd(timeout: timeout) }
    }

    /// Whether a demo is running.
    public var isRunning: Bool { task.withLock { $0 != nil } }

    /// The monitor's current problem (the store refused an event and it is retrying), if any.
    public var currentProblem: String? { problem.withLock { $0 } }

}
