import Foundation
import ScreenMatesCore
import ScreenMatesWatch
import Synchronization
import Testing

@testable import ScreenMatesHome

/// A stop wakes what waits for it — tasks, a thread in `poll`, the commands that run until
/// stopped — instead of being looked for on a timer. Every wait here is an hour or more, so a
/// stop that did not wake it would hold the test up, not pass by luck.
@Suite struct StopRequestTests {
    @Test func aRequestWakesEveryWaiterAndKeepsTheFirstStatus() async {
        let stop = StopRequest()
        #expect(stop.exitStatus == nil)
        await withDiscardingTaskGroup { group in
            for _ in 0..<3 { group.addTask { await stop.wait() } }
            stop.request(exitStatus: 143)
            stop.request(exitStatus: 130)
        }
        #expect(stop.exitStatus == 143)
        await stop.wait()
    }

    @Test func aCancelledWaiterReturnsWithoutAStop() async {
        let stop = StopRequest()
        let waiter = Task { await stop.wait() }
        waiter.cancel()
        await waiter.value
        #expect(stop.exitStatus == nil)
        await stop.close()
        await stop.wait()
    }

    @Test func aThreadSleepingInPollIsWokenByTheRequest() async {
        let stop = StopRequest()
        let woken = Mutex(false)
        let sleeper = OwnedThread(name: "sleeper") {
            let requested = stop.sleep(for: .seconds(3600))
            woken.withLock { $0 = requested }
        }
        stop.request(exitStatus: 130)
        await sleeper.join()
        #expect(woken.withLock { $0 })
    }

    @Test func workStillRunningIsCancelledByTheStopAndItsResultKept() async {
        let stop = StopRequest()
        async let result = stop.cancelling { () -> String in
            (try? await Task.sleep(for: .seconds(3600))) == nil ? "cancelled" : "slept"
        }
        stop.request(exitStatus: 143)
        #expect(await result == "cancelled")
        #expect(await stop.cancelling { "done" } == "done", "after a stop, work still runs to its end")
    }
}
