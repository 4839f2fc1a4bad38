import ScreenMatesCore
import Synchronization

/// The event sink a long-running monitor writes through. When the database turns out not to be
/// writable (read-only file or directory, a file system mounted read-only), SQLite keeps the
/// file open read-only even after the fault is gone, so this sink opens the store again before
/// each retry; once the fault is gone, the events that waited go through.
public final class ReopeningEventSink: UsageEventSink {
    private let store: LocalStore
    private let reopenFirst = Mutex(false)

    public init(store: LocalStore) {
        self.store = store
    }

    public func record(_ events: [UsageEvent]) throws(StoreError) -> Int {
        try reopenFirst.withLock { (reopen: inout Bool) throws(StoreError) in
            guard reopen else { return }
            try store.reopen()
            reopen = false
        }
        do {
            return try store.record(events)
        } catch {
            if case .notWritable = error { reopenFirst.withLock { $0 = true } }
            throw error
        }
    }
}
