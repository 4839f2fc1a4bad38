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

    private enum Trigger: Sendable {
        /// The profile to report changed.
        case report
        /// The member's numbers changed: their games are exchanged.
        case poke
        /// The store's change signal: another member (or this one) wrote.
        case changed
        case retry
        case sync
    }

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

    // The worker's own state.
    private var store: (any GroupStore)?
    private var watcher: Task<Void, Never>?
    private var retry: Task<Void, Never>?
    private var lastMark: Int64?
    /// The change mark at the last exchange of the games.
    private var exchangedMark: Int64?
    /// The games were read at the last look, but what this member tells the group of them was
    /// not taken (the store busy): the next look exchanges them whatever the mark says.
    private var gamesOwed = false
    /// The day (on the games' calendar) this link last settled the group's weeks on with the
    /// current store; nil before the first.
    private var settledOn: LocalDate?
    private var reported: ProfileDraft?
    /// Failed tries in a row (of a report or a look), for the next one's wait.
    private var failures = 0

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
        state = Mutex(
            Status(
                snapshot: cached, offline: false, problem: nil, lastSyncedAt: sync?.lastSyncedAt,
                unsyncedDays: sync?.unsyncedDays ?? 0, games: games.cached()))
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

    private func handle(_ next: Trigger) async {
        if next == .sync {
            lastMark = nil
            exchangedMark = nil
            settledOn = nil
            reported = nil
        }
        // What this look changed, told to the screen at once at the end (never half of it).
        var synced: Date?
        var daysSent = false
        do {
            if store == nil {
                let opened = try await location.open()
                store = opened
                watcher = watch(opened)
                lastMark = nil
                exchangedMark = nil
                settledOn = nil
            }
            guard let store else { return }
            let wanted = draft.withLock { $0 }
            // A report the store refuses (a name, a day its clock does not have) is said on the
            // screen, and one it cannot take now (a member's open transaction holding the group
            // past the lock timeout) is tried again later; either way the group is still
            // fetched: one member's numbers must not freeze everyone else's board. Once a write
            // was not taken, the look's other writes wait for the retry too (each would wait out
            // the same lock first), and it only reads.
            var problem: String?
            var waiting: GroupStoreError?
            if let wanted, wanted != reported {
                do {
                    let version = try await reporter.upload(wanted, to: store)
                    gate.pass { reporter.recordSent(version: version) }
                    synced = clock.now()
                    reported = wanted
                } catch let error where !error.isTransient {
                    logger.error("group store refused the profile: \(error.message)")
                    problem = Self.problem(error)
                    reported = wanted
                } catch {
                    waiting = error
                }
            }
            if waiting == nil {
                do {
                    let days = try await reporter.uploadDays(to: store)
                    if !days.isEmpty {
                        gate.pass { reporter.markSent(days) }
                        daysSent = true
                    }
                } catch let error where !error.isTransient {
                    logger.error("group store refused the finished days: \(error.message)")
                    problem = problem ?? Self.problem(error)
                } catch {
                    waiting = error
                }
            }
            // What changed since the last look (the group whole at the first look from this store).
            let today = wanted?.day ?? self.today()
            let look = try await reporter.look(
                at: store, today: today, previous: lastMark == nil ? nil : status.snapshot)
            let mark = look.snapshot.mark
            logger.debug(
                "group link: \(next) handled",
                metadata: ["mark": "\(mark ?? -1)", "seen": "\(lastMark ?? -1)", "whole": "\(look.whole)"])
            var fresh: GroupSnapshot?
            if look.changed {
                logger.leftOut(look.snapshot.leftOut, previously: status.snapshot?.leftOut)
                fresh = look.snapshot
            }
            lastMark = mark
            // The games follow the same mark; a poke exchanges them whatever it says.
            var games: GroupGamesSnapshot?
            if next == .poke || mark != exchangedMark || gamesOwed, gate.isOpen {
                let day = self.games.calendar.day(containing: clock.now())
                let settling = Self.settles(
                    poked: next == .poke, sentDays: daysSent, settledOn: settledOn, today: day)
                do {
                    let exchanged = try await exchangeGames(
                        with: store, writing: waiting == nil, settling: settling, known: look.games)
                    games = exchanged.snapshot
                    if settling, waiting == nil, exchanged.waiting == nil { settledOn = day }
                    exchangedMark = mark
                    gamesOwed = waiting != nil || exchanged.waiting != nil
                    waiting = waiting ?? exchanged.waiting
                } catch {
                    // The group was just read: a store that cannot take the exchange now (a
                    // file locked) is busy, and the exchange is tried again.
                    waiting = waiting ?? error
                }
            }
            update {
                if let fresh { $0.snapshot = fresh }
                if let games { $0.games = games }
                if let synced { $0.lastSyncedAt = synced }
                if daysSent { $0.unsyncedDays = 0 }
                $0.offline = false
                $0.following = store.following
                $0.busy = waiting != nil
                $0.problem = problem
            }
            // After the screen has it: a large group takes a moment to write.
            if let fresh { gate.pass { reporter.cache(fresh) } }
            if let waiting {
                logger.warning("group store took no report now, trying again: \(waiting.message)")
                await scheduleRetry()
            } else {
                failures = 0
            }
        } catch {
            if case .busy = error {
                // The store answered but could not be read now (a migration waiting for a file
                // another program keeps locked): it is busy, not out of reach. The screen keeps
                // the group it has, and the look is tried again.
                logger.warning("group store could not be read now, trying again: \(error.message)")
                update {
                    if let synced { $0.lastSyncedAt = synced }
                    if daysSent { $0.unsyncedDays = 0 }
                    $0.offline = false
                    $0.busy = true
                }
                await scheduleRetry()
            } else if error.isTransient {
                if !status.offline { logger.warning("group store unreachable: \(error.message)") }
                await dropStore()
                update {
                    if let synced { $0.lastSyncedAt = synced }
                    if daysSent { $0.unsyncedDays = 0 }
                    $0.offline = true
                    // Waiting for the store's owner is not the network: the screen says so.
                    if case .awaitingApproval = error { $0.problem = error.message }
                }
                await scheduleRetry()
            } else {
                // Not "offline": the store answered, and someone must act (a name taken, a login
                // refused…). The update stays; the next change tries again.
                logger.error("group store: \(error.message)")
                update {
                    if let synced { $0.lastSyncedAt = synced }
                    if daysSent { $0.unsyncedDays = 0 }
                    $0.offline = false
                    $0.problem = Self.problem(error)
                }
            }
        }
    }

    /// One exchange of the games (with `writing` false, only a read of them); a refusal is
    /// logged (the group itself was read: it stays on screen), a store out of reach ends the
    /// look as offline. `waiting`: a write the store could not take now (the games were still
    /// read).
    /// `known`: the games' marks the look just read with the group's changes, if the store said them.
    private func exchangeGames(
        with store: any GroupStore, writing: Bool, settling: Bool, known: GroupGamesMarks?
    ) async throws(GroupStoreError) -> (snapshot: GroupGamesSnapshot?, waiting: GroupStoreError?) {
        do {
            // Only what changed since the last exchange with this store.
            let previous = exchangedMark == nil ? nil : status.games
            guard writing else {
                let snapshot = try await games.fetch(from: store, previous: previous, known: known)
                logger.leftOut(snapshot.leftOut, previously: status.games?.leftOut)
                return (snapshot, nil)
            }
            let exchange = try await games.exchange(
                with: store, previous: previous, settling: settling, known: known)
            logger.leftOut(exchange.snapshot.leftOut, previously: status.games?.leftOut)
            return (exchange.snapshot, exchange.waiting)
        } catch let error where !error.isTransient {
            logger.error("group games: \(error.message)")
            return (nil, nil)
        }
    }

    /// Whether an exchange of the games settles the group's weeks first. Settling locks the
    /// group's row and counts its weeks: done at every move of the mark by every member, a
    /// 50-member group's change had 50 members queue for that lock. A mate's change needs none
    /// of it from this member, and nor does this member's own profile (today's numbers are in no
    /// closed week): the weeks are settled by whoever sent finished days (a late day total
    /// recounts a pending week when its writer settles after it), and once a day by each member
    /// (a week that closed, the day totals kept); a poke settles too.
    static func settles(poked: Bool, sentDays: Bool, settledOn: LocalDate?, today: LocalDate) -> Bool {
        poked || sentDays || settledOn != today
    }

    /// What the dashboard's one-line warning says: a store that cannot be used is said by its
    /// reason (the server's words first), not its URL, which would fill the line.
    static func problem(_ error: GroupStoreError) -> String {
        guard case .unusable(_, let detail) = error else { return error.message }
        return "group store: " + detail
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

    /// Asks again after the back-off for one more failure in a row (`retryBackoff`); a retry
    /// asked for before is cancelled and waited for first, so no task of the link outlives it
    /// unawaited.
    private func scheduleRetry() async {
        failures += 1
        let wait = Self.retryBackoff.delay(afterFailures: failures)
        let trigger = self.trigger
        retry?.cancel()
        await retry?.value
        retry = Task {
            guard (try? await Task.sleep(for: wait)) != nil else { return }
            trigger.yield(.retry)
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
