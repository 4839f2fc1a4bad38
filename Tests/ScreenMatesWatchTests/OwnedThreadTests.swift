import Foundation
import ScreenMatesWatch
import Synchronization
import Testing

/// A thread its owner wakes and joins.
@Suite struct OwnedThreadTests {
    /// The work runs on a thread of its own, named; a join returns once the work has returned
    /// and the thread is gone from `/proc/self/task`; joining again returns at once.
    @Test func joiningReturnsOnceTheThreadIsGone() async throws {
        let wake = WakePipe()
        let name = Mutex<String?>(nil)
        let thread = OwnedThread(name: "owned-test") {
            name.withLock {
                $0 = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .newlines)
            }
            // Sleeps until it is woken: nothing else ends it.
            var descriptors = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 1, -1)
        }
        while thread.threadID == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let id = thread.threadID
        #expect(FileManager.default.fileExists(atPath: "/proc/self/task/\(id)"))
        #expect(!thread.hasEnded)
        wake.wake()
        await thread.join()
        #expect(thread.hasEnded)
        #expect(name.withLock { $0 } == "owned-test")
        #expect(!FileManager.default.fileExists(atPath: "/proc/self/task/\(id)"), "the thread is gone")
        await thread.join()
    }
}
