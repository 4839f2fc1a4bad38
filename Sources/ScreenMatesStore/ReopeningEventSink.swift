import ScreenMatesCore
import Synchronization

/// The event sink a long-running monitor writes through. When the database turns out not to be
/// writable (read-only file or directory, a file system mounted read-only), SQLite keeps the
/// file open read-only even after the fault is gone, so this sink opens the store again before
/// each retry; once the fault is gone, the events that waited go through. After each write
/// that went through, `afterRecording` runs (what the new blocks decide: challenges, badges).
public final class ReopeningEventSink: UsageEventSink {
    private let store: LocalStore
    private let reopenFirst = Mutex(false)
    private let afterRecording: (@Sendable (LocalStore) -> Void)?

    public init(store: LocalStore, afterRecording: (@Sendable (LocalStore) -> Void)? = nil) {
        self.store = store
        self.afterRecording = afterRecording
    }

    public func record(_ events: [UsageEvent]) throws(StoreError) -> Int {
        try reopenFirst.withLock { (reopen: inout Bool) throws(StoreError) in
            guard reopen else { return }
            try store.reopen()
            reopen = false
        }
        do {
            let recorded = try store.record(events)
            afterRecording?(store)
            return recorded
        } catch {
            if case .notWritable = error { reopenFirst.withLock { $0 = true } }
            throw error
        }
    }
}
