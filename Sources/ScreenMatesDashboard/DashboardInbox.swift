import Synchronization

/// The one way into the dashboard's loop from other threads: background work posts events here
/// and wakes the loop, which takes them all at once after each wait.
final class DashboardInbox: Sendable {
    private let events = Mutex<[DashboardEvent]>([])
    private let wake: @Sendable () -> Void

    /// `wake` interrupts the loop's wait (the terminal's wake-up pipe).
    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Adds an event and wakes the loop; safe from any thread, never blocks for long.
    func post(_ event: DashboardEvent) {
        events.withLock { $0.append(event) }
        wake()
    }

    /// The events posted since the last call, in order.
    func take() -> [DashboardEvent] {
        events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }
}
