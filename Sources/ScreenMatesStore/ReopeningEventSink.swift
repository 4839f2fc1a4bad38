import ScreenMatesCore
import Synchronization

/// The event sink a long-running monitor writes through. When the database turns out not to be
/// writable (read-only file or directory), SQLite keeps the file open read-only even after the
/// permissions are fixed, so this sink opens the store again before each retry; once the fault
/// is gone, the events that waited go through.
public final class ReopeningEventSink: UsageEventSink {
    private let path: String
    private let current: Mutex<LocalStore?>

    public init(store: LocalStore) {
        path = store.path
        current = Mutex(store)
    }

    public func record(_ events: [UsageEvent]) throws(StoreError) -> Int {
        let store = try current.withLock { (store: inout LocalStore?) throws(StoreError) -> LocalStore in
            if let store { return store }
            let reopened = try LocalStore.open(at: path)
            store = reopened
            return reopened
        }
        do {
            return try store.record(events)
        } catch {
            if case .notWritable = error { current.withLock { $0 = nil } }
            throw error
        }
    }
}
