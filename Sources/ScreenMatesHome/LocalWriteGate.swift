import Synchronization

/// Lets background work (the demo monitor, the group link) write to the local store until it is
/// closed. Closing waits only for a write already in hand — a short local transaction, never a
/// network call or a task's end — and from then on nothing passes: what the dashboard does next
/// (clearing local data, moving the clock, opening the store again) never finds a write from the
/// work it stopped landing after it.
public final class LocalWriteGate: Sendable {
    private let open = Mutex(true)

    public init() {}

    /// Runs `write` unless the gate is closed; returns nil when it is.
    public func pass<Result: Sendable, Failure: Error>(_ write: () throws(Failure) -> Result) throws(Failure)
        -> Result?
    {
        try open.withLock { (isOpen: inout Bool) throws(Failure) -> Result? in
            guard isOpen else { return nil }
            return try write()
        }
    }

    /// Closes the gate; returns once a write in hand has ended.
    public func close() {
        open.withLock { $0 = false }
    }

    public var isOpen: Bool { open.withLock { $0 } }
}
