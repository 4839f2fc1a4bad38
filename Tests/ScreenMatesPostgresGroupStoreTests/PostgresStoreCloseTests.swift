import Foundation
import ScreenMatesGroupStore
import Synchronization
import Testing

@testable import ScreenMatesPostgresGroupStore

/// Closing a store ends its tasks and waits for them, but not for ever: a query postgres-nio
/// never answers (it once held a closing store, and a whole test run behind it) is left behind.
/// No server is needed: nothing here connects.
struct PostgresStoreCloseTests {
    private static func store() throws -> PostgresGroupStore {
        PostgresGroupStore(
            address: try PostgresAddress(url: "postgres://nobody@/nothing?host=/nonexistent"),
            keyring: PostgresTestServer.keyring)
    }

    @Test func aQueryThatNeverEndsDoesNotHoldTheClose() async throws {
        let store = try Self.store()
        let stuck = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let running = Atomic<Bool>(false)
        _ = store.overdue.start {
            await withCheckedContinuation { continuation in
                stuck.withLock { $0 = continuation }
                running.store(true, ordering: .releasing)
            }
        }
        while !running.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(10)) }

        let closed = Atomic<Bool>(false)
        let closing = Task {
            await store.close(waitingAtMost: .milliseconds(300))
            closed.store(true, ordering: .releasing)
        }
        for _ in 0..<600 where !closed.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(50)) }
        let returned = closed.load(ordering: .acquiring)
        #expect(returned, "the close returned though a query never ended")
        stuck.withLock { continuation in
            continuation?.resume()
            continuation = nil
        }
        await closing.value
    }

    @Test func endsWithinSaysWhetherTheWorkEnded() async {
        #expect(await endsWithin(.seconds(60)) {})
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        #expect(
            !(await endsWithin(.milliseconds(100)) {
                await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
            }))
        // Let the work that was left behind end.
        while gate.withLock({ $0 == nil }) { try? await Task.sleep(for: .milliseconds(10)) }
        gate.withLock { continuation in
            continuation?.resume()
            continuation = nil
        }
    }
}
