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
///
/// An actor owned like `GroupLink`: whoever starts `run` awaits it, and the tasks it starts end
/// with it. `stop()` returns at once; no exchange starts after it.
public actor GroupGamesLink {
    /// What the screens show.
    public struct Status: Hashable, Sendable {
        public var snapshot: GroupGamesSnapshot?
        public var offline: Bool
    }

    public nonisolated let games: GroupGames
    private let location: GroupStoreLocation
    private let logger: Logger
    private let onChange: @Sendable (Status) -> Void
    private nonisolated let state: Mutex<Status>
    private nonisolated let stopped = Atomic<Bool>(false)
    private let triggers: AsyncStream<Void>
    private nonisolated let trigger: AsyncStream<Void>.Continuation

    // The worker's own state.
    private var store: (any GroupStore)?
    private var watcher: Task<Void, Never>?
    private var retry: Task<Void, Never>?

    /// How long to wait before trying an unreachable store again.
    static let retryDelay: Duration = .seconds(5)

    /// `onChange` is told each new status (from the link's own task).
    public init(
        games: GroupGames, location: GroupStoreLocation, logger: Logger,
        onChange: @escaping @Sendable (Status) -> Void
    ) {
        self.games = games
        self.location = location
        self.logger = logger
        self.onChange = onChange
        state = Mutex(Status(snapshot: games.cached(), offline: false))
        (triggers, trigger) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public nonisolated var status: Status { state.withLock { $0 } }

    /// Asks for an exchange soon (merged with one already asked for). Never blocks.
    public nonisolated func poke() { trigger.yield() }

    /// Stops the link: `run` returns soon after, and no exchange starts from now on. Safe to
    /// call more than once, from any thread.
    public nonisolated func stop() {
        stopped.store(true, ordering: .releasing)
        trigger.finish()
    }

    /// Exchanges until `stop` or cancellation; returns when the tasks it started have ended.
    public func run() async {
        trigger.yield()
        for await _ in triggers {
            guard !Task.isCancelled, !stopped.load(ordering: .acquiring) else { break }
            await exchange()
        }
        watcher?.cancel()
        retry?.cancel()
        await watcher?.value
        await retry?.value
    }

    private func exchange() async {
        do throws(GroupStoreError) {
            if store == nil {
                let opened = try location.open()
                store = opened
                watcher?.cancel()
                watcher = watch(opened)
            }
            guard let store else { return }
            let (snapshot, _) = try await games.exchange(with: store)
            logger.leftOut(snapshot.leftOut, previously: status.snapshot?.leftOut)
            update {
                $0.snapshot = snapshot
                $0.offline = false
            }
        } catch {
            if error.isTransient {
                if !status.offline { logger.warning("group store unreachable: \(error.message)") }
                store = nil
                update { $0.offline = true }
                let trigger = self.trigger
                retry?.cancel()
                retry = Task {
                    guard (try? await Task.sleep(for: Self.retryDelay)) != nil else { return }
                    trigger.yield()
                }
            } else {
                logger.error("group games: \(error.message)")
            }
        }
    }

    /// Turns the store's change stream into exchanges, in a task the link owns.
    private func watch(_ store: any GroupStore) -> Task<Void, Never> {
        let code = games.membership.code
        let trigger = self.trigger
        return Task {
            for await _ in store.changes(code: code) {
                if Task.isCancelled { break }
                trigger.yield()
            }
        }
    }

    private func update(_ change: (inout Status) -> Void) {
        let changed = state.withLock { status -> Status? in
            let before = status
            change(&status)
            return status != before ? status : nil
        }
        if let changed { onChange(changed) }
    }
}
