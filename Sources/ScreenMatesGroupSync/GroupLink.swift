import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore
import Synchronization

/// The user's one connection to their group, working in the background so the screen never
/// waits for the group store: one store opened, one change watch, one retry schedule, for the
/// leaderboard and the games alike.
///
/// It reports the user's profile whenever the dashboard's numbers change, and every finished day
/// not yet synced, in one batch; it keeps the group's snapshot fresh, waking on the store's
/// change signal (no fixed poll), and caches it in the local store so the dashboard opens on it
/// at once. When the store cannot be reached it works from the cache, marked offline, and sends
/// the newest profile when the store is back: a profile is never queued stale, it is made from
/// the current numbers with a new, higher version.
///
/// The group's games (challenges, coins, weeks) are exchanged in the same looks
/// (`GroupGames.exchange`): when `poke` says the member's numbers changed, and when the group's
/// change mark moved (another member's report, a week settled). An exchange that writes nothing
/// moves no change mark, so two members' links settle down after one round.
///
/// Every decision is `GroupLinkStep`'s, a pure step tested case by case without a store; the
/// actor is its runtime: it feeds the step each trigger and what each call to the store came to,
/// and carries out the effects the step returns.
///
/// An actor: its worker (`run`) and the tasks it starts (the store's change stream, a retry)
/// live inside it and end with it; whoever starts `run` awaits it. `stop()` may be called from
/// any thread and returns at once: from then on the link writes nothing more to the local store
/// (a write in hand ends first) and starts no exchange, even while a call to the group store is
/// still on its way back.
public actor GroupLink {
    /// What the dashboard shows about the group.
    public struct Status: Hashable, Sendable {
        public var snapshot: GroupSnapshot?
        /// The store could not be reached at the last attempt.
        public var offline: Bool
        /// Something the user must fix (a name taken in the group…), shown until it changes.
        public var problem: String?
        public var lastSyncedAt: Date?
        public var unsyncedDays: Int
        /// The group was read, but the last report could not be written now (a file another
        /// program holds locked, a group a member's open transaction holds): it is tried again.
        public var busy: Bool
        /// The group's challenges, coins and weeks, as last exchanged (or cached).
        public var games: GroupGamesSnapshot?
        /// How the group's changes reach the link, once it reached the store.
        public var following: ChangeFollowing?

        public init(
            snapshot: GroupSnapshot?, offline: Bool, problem: String?, lastSyncedAt: Date?, unsyncedDays: Int,
            busy: Bool = false, games: GroupGamesSnapshot? = nil
        ) {
            self.snapshot = snapshot
            self.offline = offline
            self.problem = problem
            self.lastSyncedAt = lastSyncedAt
            self.unsyncedDays = unsyncedDays
            self.busy = busy
            self.games = games
        }

        /// The rows the store left out of the group and of its games, each named once.
        public var leftOut: [LeftOutRow] {
            var rows: [LeftOutRow] = []
            for row in (snapshot?.leftOut ?? []) + (games?.leftOut ?? []) where !rows.contains(row) {
                rows.append(row)
            }
            return rows
        }
    }

    typealias Trigger = GroupLinkStep.Trigger

    /// This member's side of the group's games, exchanged by the link.
    public nonisolated let games: GroupGames
    private let location: GroupStoreLocation
    private let membership: GroupMembership
    private let local: LocalStore
    private let reporter: GroupReporter
    private let clock: any AppClock
    private let timeZone: TimeZoneSource
    private let logger: Logger
    private let onChange: @Sendable (Status) -> Void
    private nonisolated let state: Mutex<Status>
    private nonisolated let draft = Mutex<ProfileDraft?>(nil)
    private nonisolated let gate = LocalWriteGate()
    private let triggers: AsyncStream<Trigger>
    private nonisolated let trigger: AsyncStream<Trigger>.Continuation

    // The worker's own state: the decisions' and the handles of what it runs.
    private var step: GroupLinkStep
    private var store: (any GroupStore)?
    private var watcher: Task<Void, Never>?
    private var retry: Task<Void, Never>?

    /// How long to wait before trying a store again: 1 s doubling up to 30 s, half of each wait
    /// drawn at random, so that the members of a store that went away come back spread.
    static let retryBackoff = RetryBackoff(first: .seconds(1), longest: .seconds(30))

    /// `onChange` is told each new status (from the link's own task). The games are kept on
    /// the user's calendar as the local store's settings have it now.
    public init(
        local: LocalStore, location: GroupStoreLocation, membership: GroupMembership, userID: UserID,
        clock: any AppClock, timeZone: TimeZoneSource, logger: Logger,
        onChange: @escaping @Sendable (Status) -> Void
    ) {
        let dayStartHour = ((try? local.settings()) ?? nil)?.dayStartHour ?? 0
        games = GroupGames(
            local: local, membership: membership, userID: userID, clock: clock,
            calendar: DayCalendar(timeZone: timeZone.current(), dayStartHour: dayStartHour))
        self.location = location
        self.membership = membership
        self.local = local
        self.reporter = GroupReporter(local: local, membership: membership, userID: userID, clock: clock)
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
        self.onChange = onChange
        let cached = (try? local.groupCache(code: membership.code)).flatMap { GroupSnapshot.decoded($0.snapshot) }
        let sync = try? local.syncState()
        let status = Status(
            snapshot: cached, offline: false, problem: nil, lastSyncedAt: sync?.lastSyncedAt,
            unsyncedDays: sync?.unsyncedDays ?? 0, games: games.cached())
        state = Mutex(status)
        step = GroupLinkStep(status: status)
        (triggers, trigger) = AsyncStream.makeStream(of: Trigger.self, bufferingPolicy: .bufferingNewest(8))
    }

    public nonisolated var status: Status { state.withLock { $0 } }

    /// Asks for the profile to be reported; the newest draft wins. Never blocks.
    public nonisolated func report(_ newDraft: ProfileDraft) {
        let changed = draft.withLock { current -> Bool in
            defer { current = newDraft }
            return current != newDraft
        }
        if changed { trigger.yield(.report) }
    }

    /// Asks for the games to be exchanged soon (the member's numbers changed). Never blocks.
    public nonisolated func poke() {
        trigger.yield(.poke)
    }

    /// Reports and fetches the group now, whether or not anything seems to have changed.
    public nonisolated func syncNow() {
        trigger.yield(.sync)
    }

    /// Stops the link: `run` returns soon after, and nothing more is written to the local store
    /// from the moment this returns. Safe to call more than once, from any thread.
    public nonisolated func stop() {
        gate.close()
        trigger.finish()
    }

    // MARK: - The worker

    /// Reports and watches until `stop` or cancellation; returns when the tasks it started have
    /// ended too.
    public func run() async {
        trigger.yield(.changed)
        for await next in triggers {
            guard !Task.isCancelled, gate.isOpen else { break }
            await handle(next)
        }
        retry?.cancel()
        await retry?.value
        await dropStore()
    }

    /// Stops watching the store and closes it, waiting for what it ran in the background.
    private func dropStore() async {
        watcher?.cancel()
        await watcher?.value
        watcher = nil
        await store?.close()
        store = nil
    }

    /// One look at the group: the step's effects carried out until none asks the store again.
    private func handle(_ next: Trigger) async {
        var event: GroupLinkStep.Event? = .trigger(
            next, draft: draft.withLock { $0 }, today: today(), gamesDay: games.calendar.day(containing: clock.now()))
        while let happened = event {
            event = nil
            for effect in step.step(happened) {
                if let outcome = await perform(effect) { event = outcome }
            }
        }
    }

    /// Carries out one effect; a call to the store answers what it came to.
    private func perform(_ effect: GroupLinkStep.Effect) async -> GroupLinkStep.Event? {
        do throws(GroupStoreError) {
            switch effect {
            case .open:
                let opened = try await location.open()
                store = opened
                watcher = watch(opened)
                return .opened
            case .sendProfile(let wanted):
                let draft = reporter.lastActiveOfTheMember(wanted, in: step.status.snapshot)
                let version = try await reporter.upload(draft, to: try openStore())
                return .profileSent(version: version, at: clock.now())
            case .sendDays:
                return .daysSent(try await reporter.uploadDays(to: try openStore()))
            case .look(let today, let previous):
                let store = try openStore()
                let look = try await reporter.look(at: store, today: today, previous: previous)
                return .looked(look, following: store.following)
            case .exchangeGames(let writing, let settling, let known, let previous):
                guard gate.isOpen else { return .gamesSkipped }
                guard writing else {
                    let snapshot = try await games.fetch(from: try openStore(), previous: previous, known: known)
                    return .gamesExchanged(snapshot, waiting: nil)
                }
                let exchange = try await games.exchange(
                    with: try openStore(), previous: previous, settling: settling, known: known)
                return .gamesExchanged(exchange.snapshot, waiting: exchange.waiting)
            case .recordSent(let version):
                gate.pass { reporter.recordSent(version: version) }
            case .markSent(let days):
                gate.pass { reporter.markSent(days) }
            case .cache(let snapshot):
                gate.pass { reporter.cache(snapshot) }
            case .dropStore:
                await dropStore()
            case .retry(let failures):
                await scheduleRetry(afterFailures: failures)
            case .publish(let status):
                state.withLock { $0 = status }
                onChange(status)
            case .log(let level, let message, let metadata):
                logger.log(
                    level: level, "\(message)", metadata: metadata.isEmpty ? nil : metadata.mapValues { .string($0) })
            case .logLeftOut(let rows, let previously):
                logger.leftOut(rows, previously: previously)
            }
            return nil
        } catch {
            return .failed(error)
        }
    }

    /// The store the step asked a call of; it opened it first.
    private func openStore() throws(GroupStoreError) -> any GroupStore {
        guard let store else { throw .unavailable(location: location.description, detail: "the store is not open") }
        return store
    }

    /// The user's day now, on their calendar (day-start hour included), for a snapshot read
    /// before anything was reported.
    private func today() -> LocalDate {
        let hour = (try? local.settings())?.dayStartHour ?? 0
        return DayCalendar(timeZone: timeZone.current(), dayStartHour: hour).day(containing: clock.now())
    }

    /// Turns the store's change stream into triggers, in a task the link owns.
    private func watch(_ store: any GroupStore) -> Task<Void, Never> {
        let code = membership.code
        let trigger = self.trigger
        return Task {
            for await _ in store.changes(code: code) {
                if Task.isCancelled { break }
                trigger.yield(.changed)
            }
        }
    }

    /// Asks again after the back-off for `failures` failures in a row (`retryBackoff`); a retry
    /// asked for before is cancelled and waited for first, so no task of the link outlives it
    /// unawaited.
    private func scheduleRetry(afterFailures failures: Int) async {
        let wait = Self.retryBackoff.delay(afterFailures: failures)
        let trigger = self.trigger
        retry?.cancel()
        await retry?.value
        retry = Task {
            guard (try? await Task.sleep(for: wait)) != nil else { return }
            trigger.yield(.retry)
        }
    }
}
