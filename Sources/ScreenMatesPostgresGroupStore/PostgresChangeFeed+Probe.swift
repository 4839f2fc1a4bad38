import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Synchronization

// Whether notifications come back to this client at all: behind a connection pooler in
// transaction mode they do not, and the feed asks at a steady pace instead.
extension PostgresChangeFeed {
    /// Finds out whether notifications reach `connection` (see the type's overview): it listens
    /// on a channel of its own (as `listen` does, in a transaction), the pool notifies it, and
    /// the notification must come back within `probeTimeout`; else throws `ListenUnheard`.
    func probe(_ connection: PostgresConnection, pool: Pool) async throws {
        let logger = self.logger
        let channel = "screenmates_" + UUID().uuidString.lowercased().filter(\.isHexDigit)
        let payload = "probe"
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                _ = try await connection.query("BEGIN", logger: logger).collect()
                try await connection.listen(on: channel) { notifications in
                    _ = try await connection.query("COMMIT", logger: logger).collect()
                    try await pool.notify(channel, payload)
                    for try await notification in notifications where notification.payload == payload { return }
                }
            }
            group.addTask {
                try await Task.sleep(for: Self.probeTimeout)
                throw ListenUnheard()
            }
            // Whichever ends first: the probe heard, or the time up.
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Whose turn it is to start listening on a connection (see `listen`): one at a time, in
    /// the order asked.
    final class ListenTurns: Sendable {
        private let state = Mutex<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        /// Returns once it is the caller's turn, which lasts until `end` of its `Turn`.
        func take() async {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.busy else {
                        state.busy = true
                        return true
                    }
                    state.waiting.append(waiter)
                    return false
                }
                if now { waiter.resume() }
            }
        }

        fileprivate func pass() {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.busy = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
    }

    /// One turn taken: ended once, by whichever comes first (the COMMIT, or leaving).
    final class Turn: Sendable {
        private let turns: ListenTurns
        private let ended = Mutex(false)

        init(_ turns: ListenTurns) { self.turns = turns }

        func end() {
            let first = ended.withLock { ended in
                defer { ended = true }
                return !ended
            }
            if first { turns.pass() }
        }
    }

    /// The store's own NOTIFY did not come back: notifications do not reach this client.
    struct ListenUnheard: Error {}
}
