import Foundation

extension Task where Success == Void, Failure == Never {
    /// Waits on this thread, at most `timeout` seconds, for the task to end; returns whether it
    /// did. For the dashboard's loop, which runs on the main thread outside the tasks' pool, so
    /// waiting there blocks no task.
    func waitForEnd(timeout: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Task<Void, Never>.detached {
            await self.value
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }
}
