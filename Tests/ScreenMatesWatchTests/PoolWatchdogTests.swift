import Synchronization
import Testing

@testable import ScreenMatesWatch

/// The watchdog says when the pool runs no task, once, and when it runs again; on a pool that
/// runs, it says nothing. A stalled pool is played by a schedule that holds the heartbeats, so
/// no test stops the real pool (the other tests run on it).
@Suite struct PoolWatchdogTests {
    /// A pool that runs nothing until let go.
    final class HeldPool: Sendable {
        private let held = Mutex<[@Sendable () -> Void]>([])
        var schedule: PoolWatchdog.Schedule { { body in self.held.withLock { $0.append(body) } } }
        var count: Int { held.withLock { $0.count } }
        func release() {
            for body in held.withLock({ held in
                defer { held = [] }
                return held
            }) { body() }
        }
    }

    final class Told: Sendable {
        let changes = Mutex<[PoolWatchdog.Health]>([])
        func add(_ health: PoolWatchdog.Health) { changes.withLock { $0.append(health) } }
        var all: [PoolWatchdog.Health] { changes.withLock { $0 } }
    }

    /// Waits until `condition` holds, up to a minute (the conditions here come within
    /// milliseconds; the limit is for a machine under load, never a pass by luck).
    func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<6000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aPoolThatRunsNoTaskIsSaidStalledOnceAndRunningAgainWhenItDoes() async throws {
        let pool = HeldPool()
        let told = Told()
        let watchdog = PoolWatchdog(
            interval: .milliseconds(5), limit: .milliseconds(50), schedule: pool.schedule, onChange: told.add)
        try await eventually { !told.all.isEmpty }
        let stalled = try #require(told.all.first)
        #expect(stalled.stalled)
        #expect(stalled.stalls == 1)
        #expect(stalled.waiting >= .milliseconds(50))
        #expect(pool.count == 1, "one heartbeat at a time: a stalled pool is not handed more")
        try await Task.sleep(for: .milliseconds(100))
        #expect(told.all.count == 1, "a stall is said once, not at every look")

        pool.release()
        try await eventually { told.all.count == 2 }
        let recovered = try #require(told.all.last)
        #expect(!recovered.stalled)
        #expect(recovered.stalls == 1)
        #expect(recovered.longestWait >= .milliseconds(150), "how long the heartbeat waited")
        #expect(watchdog.health.beats >= 1)
        await watchdog.stop()
    }

    @Test func aPoolThatRunsItsTasksIsNeverSaidStalled() async throws {
        let told = Told()
        let watchdog = PoolWatchdog(interval: .milliseconds(5), limit: .seconds(30), onChange: told.add)
        try await eventually { watchdog.health.beats >= 20 }
        #expect(watchdog.health.beats >= 20, "the heartbeats run on the real pool")
        #expect(told.all.isEmpty)
        #expect(watchdog.health.stalls == 0)
        await watchdog.stop()
    }

    @Test func stoppingEndsTheWatchdogsThread() async {
        let watchdog = PoolWatchdog(interval: .seconds(3600), onChange: { _ in })
        await watchdog.stop()
        #expect(watchdog.health.stalls == 0, "stopped at once, though its next look was an hour away")
    }
}
