import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import Synchronization
import Testing

/// A sink that fails a given number of times before storing, and remembers what it stored.
final class FlakySink: UsageEventSink {
    struct Failure: Error {}
    private let state: Mutex<(failuresLeft: Int, stored: [UsageEvent], attempts: Int)>

    init(failures: Int) { state = Mutex((failures, [], 0)) }

    func record(_ events: [UsageEvent]) throws -> Int {
        try state.withLock { state in
            state.attempts += 1
            if state.failuresLeft > 0 {
                state.failuresLeft -= 1
                throw Failure()
            }
            let new = events.filter { event in !state.stored.contains { $0.id == event.id } }
            state.stored += new
            return new.count
        }
    }

    var stored: [UsageEvent] { state.withLock { $0.stored } }
    var attempts: Int { state.withLock { $0.attempts } }
}

@Suite struct MonitorRunnerTests {
    @Test func everyEventIsReportedOnlyAfterTheSinkStoredItAndFailuresAreRetried() async {
        let sink = FlakySink(failures: 3)
        let reported = Mutex<[UsageEvent]>([])
        let errors = Atomic<Int>(0)
        // A clock far ahead of the simulated events, so nothing waits.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_900_000_000))
        let runner = MonitorRunner(
            sink: sink, clock: clock,
            onRecorded: { events in
                // Reported means committed: the sink must already hold it.
                #expect(events.allSatisfy { event in sink.stored.contains { $0.id == event.id } })
                reported.withLock { $0 += events }
            },
            onError: { error in if error != nil { errors.add(1, ordering: .relaxed) } })
        let simulator = UsageSimulator(
            seed: 5, apps: UsageSimulatorTests.apps, profile: UsageSimulatorTests.profile, blockMinutes: 15,
            calendar: UsageSimulatorTests.calendar, start: UsageSimulatorTests.start)
        await runner.run(simulator, limit: 25)
        #expect(sink.stored.count == 25)
        #expect(reported.withLock { $0 } == sink.stored)
        #expect(errors.load(ordering: .relaxed) == 3)
        #expect(sink.attempts == 28)
    }

    @Test func cancellingStopsTheRunner() async {
        let sink = FlakySink(failures: 0)
        // A real-time clock with events far in the future: the runner sleeps until cancelled.
        let clock = ManualClock(Date(timeIntervalSince1970: 0))
        let runner = MonitorRunner(sink: sink, clock: clock, onRecorded: { _ in })
        let simulator = UsageSimulator(
            seed: 5, apps: UsageSimulatorTests.apps, profile: UsageSimulatorTests.profile, blockMinutes: 15,
            calendar: UsageSimulatorTests.calendar, start: UsageSimulatorTests.start)
        let task = Task { await runner.run(simulator) }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        #expect(await task.value == 0)
        #expect(sink.stored.isEmpty)
    }
}
