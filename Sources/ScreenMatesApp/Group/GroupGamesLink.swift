import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore
import Synchronization

/// Keeps a member's side of the group's games exchanged in the background, live: on every
/// `poke` (the member's numbers changed) and on every change signal of the group (another
/// member's report, a week settled), one `GroupGames.exchange` — settling and booking weeks,
/// reporting this member's challenges and coins, reading everything back. Exchanges that pile up
/// while one runs are merged into one; an exchange that writes nothing moves no change mark, so
/// the two members' links settle down after one round.
///
/// While the group store is out of reach it serves the cached games, marked offline, and tries
/// again on the next poke or after a few seconds.
public final class GroupGamesLink: Sendable {
    /// What the screens show.
    public struct Status: Hashable, Sendable {
        public var snapshot: GroupGamesSnapshot?
        public var offline: Bool
        /// Notices the exchanges recorded first (a week settled, a challenge decided), newest last.
        public var notices: [Notice]
    }

    private let games: GroupGames
    private let location: GroupStoreLocation
    private let logger: Logger
    private let wake: @Sendable () -> Void
    private let state: Mutex<Status>
    private let triggers: AsyncStream<Void>
    private let trigger: AsyncStream<Void>.Continuation
    private let worker = Mutex<Task<Void, Never>?>(nil)

    /// How long to wait before trying an unreachable store again.
    static let retryDelay: Duration = .seconds(5)

    public init(games: GroupGames, location: GroupStoreLocation, logger: Logger, wake: @escaping @Sendable () -> Void) {
        self.games = games
        self.location = location
        self.logger = logger
        self.wake = wake
        state = Mutex(Status(snapshot: games.cached(), offline: false, notices: []))
        (triggers, trigger) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public var status: Status { state.withLock { $0 } }

    public func start() {
        let task = Task.detached { [self] in await work() }
        worker.withLock { $0 = task }
        trigger.yield()
    }

    /// Asks for an exchange soon (merged with one already asked for). Never blocks.
    public func poke() { trigger.yield() }

    public func stop() {
        trigger.finish()
        worker.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    private func work() async {
        var store: (any GroupStore)?
        var watcher: Task<Void, Never>?
        var retry: Task<Void, Never>?
        for await _ in triggers {
            guard !Task.isCancelled else { break }
            do throws(GroupStoreError) {
                if store == nil {
                    let opened = try location.open()
                    store = opened
                    watcher?.cancel()
                    watcher = watch(opened)
                }
                guard let store else { continue }
                let (snapshot, notices) = try await games.exchange(with: store)
                update {
                    $0.snapshot = snapshot
                    $0.offline = false
                    $0.notices += notices
                }
            } catch {
                if error.isTransient {
                    if !status.offline { logger.warning("group store unreachable: \(error.message)") }
                    store = nil
                    update { $0.offline = true }
                    retry?.cancel()
                    let trigger = self.trigger
                    retry = Task.detached {
                        try? await Task.sleep(for: Self.retryDelay)
                        trigger.yield()
                    }
                } else {
                    logger.error("group games: \(error.message)")
                }
            }
        }
        watcher?.cancel()
        retry?.cancel()
    }

    private func watch(_ store: any GroupStore) -> Task<Void, Never> {
        let code = games.membership.code
        let trigger = self.trigger
        return Task.detached {
            for await _ in store.changes(code: code) {
                if Task.isCancelled { break }
                trigger.yield()
            }
        }
    }

    private func update(_ change: (inout Status) -> Void) {
        let changed = state.withLock { status -> Bool in
            let before = status
            change(&status)
            return status != before
        }
        if changed { wake() }
    }
}
