import Foundation
import Glibc
import Testing

@testable import ScreenMatesApp

/// The sampling follower's own thread: the loop runs there and sleeps there, and `run`
/// returns only once it has ended.
@Suite struct SamplingThreadTests {
    @Test func theLoopRunsAndSleepsOnItsOwnThread() async {
        let caller = pthread_self()
        let (elsewhere, stayed) = await SamplingThread.run { thread -> (Bool, Bool) in
            let mine = pthread_self()
            await thread.sleep(for: .milliseconds(20), until: StopRequest())
            return (pthread_equal(mine, caller) == 0, pthread_equal(mine, pthread_self()) != 0)
        }
        #expect(elsewhere, "the loop runs on a thread of its own")
        #expect(stayed, "and sleeps there, not handing over to the shared pool")
    }

    @Test func awaitedWorkComesBackToTheThread() async throws {
        let results = await SamplingThread.run { thread -> [Bool] in
            let mine = pthread_self()
            var back: [Bool] = []
            for _ in 0..<3 {
                // A child task (as a tmux query awaits one) and back.
                _ = await Task { 42 }.value
                back.append(pthread_equal(mine, pthread_self()) != 0)
                await thread.sleep(for: .milliseconds(5), until: StopRequest())
            }
            return back
        }
        #expect(results == [true, true, true])
    }
}
