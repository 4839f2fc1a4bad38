import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore
import Synchronization

/// The user's connection to their group, working in the background so the screen never waits
/// for the group store.
///
/// It reports the user's profile whenever the dashboard's numbers change, and every finished day
/// not yet synced, in one batch; it keeps the group's snapshot fresh, waking on the store's
/// change signal (no fixed poll), and caches it in the local store so the dashboard opens on it
/// at once. When the store cannot be reached it works from the cache, marked offline, and sends
/// the newest profile when the store is back: a profile is never queued stale, it is made from
/// the current numbers with a new, higher version.
public final class GroupLink: Sendable {
    /// What the dashboard shows about the group.
    public struct Status: Hashable, Sendable {
        public var snapshot: GroupSnapshot?
        /// The store could not be reached at the last attempt.
        public var offline: Bool
        /// Something the user must fix (a name taken in the group…), shown until it changes.
        public var problem: String?
        public var lastSyncedAt: Date?
        public var unsyncedDays: Int

        public init(
            snapshot: GroupSnapshot?, offline: Bool, problem: String?, lastSyncedAt: Date?, unsyncedDays: Int
        ) {
            self.snapshot = snapshot
            self.offline = offline
            self.problem = problem
            self.lastSyncedAt = lastSyncedAt
            self.unsyncedDays = unsyncedDays
        }
    }

    private enum Trigger: Sendable {
        case report
        case changed
        case retry
        case sync
    }

    private let location: GroupStoreLocation
    private let membership: GroupMembership
    private let local: LocalStore
    private let reporter: GroupReporter
    private let clock: any AppClock
    private let logger: Logger
    private let wake: @Sendable () -> Void
    private let state: Mutex<Status>
    private let draft = Mutex<ProfileDraft?>(nil)
    private let triggers: AsyncStream<Trigger>
    private let trigger: AsyncStream<Trigger>.Continuation
    private let worker = Mutex<Task<Void, Never>?>(nil)
    private let retry = Mutex<Task<Void, Never>?>(nil)

    /// How long to wait before trying an unreachable store again, at most.
    static let maximumRetryDelay = 30.0

    public init(
        local: LocalStore, location: GroupStoreLocation, membership: GroupMembership, userID: String,
        clock: any AppClock, logger: Logger, wake: @escaping @Sendable () -> Void
    ) {
        self.location = location
        self.membership = membership
        self.local = local
        self.reporter = GroupReporter(local: local, membership: membership, userID: userID, clock: clock)
        self.clock = clock
        self.logger = logger
        self.wake = wake
        let cached = (try? local.groupCache(code: membership.code)).flatMap { GroupSnapshot.decoded($0.snapshot) }
        let sync = try? local.syncState()
        state = Mutex(
            Status(
                snapshot: cached, offline: false, problem: nil, lastSyncedAt: sync?.lastSyncedAt,
                unsyncedDays: sync?.unsyncedDays ?? 0))
        (triggers, trigger) = AsyncStream.makeStream(of: Trigger.self, bufferingPolicy: .bufferingNewest(8))
    }

    public var status: Status { state.withLock { $0 } }

    /// Starts reporting and watching.
    public func start() {
        let task = Task.detached { [self] in await work() }
        worker.withLock { $0 = task }
        trigger.yield(.changed)
    }

    /// Asks for the profile to be reported; the newest draft wins. Never blocks.
    public func report(_ newDraft: ProfileDraft) {
        let changed = draft.withLock { current -> Bool in
            defer { current = newDraft }
            return current != newDraft
        }
        if changed { trigger.yield(.report) }
    }

    /// Reports and fetches the group now, whether or not anything seems to have changed.
    public func syncNow() {
        trigger.yield(.sync)
    }

    /// Stops and waits (on a thread outside the tasks' pool) until the exchange in hand has
    /// ended, so nothing it writes to the local store lands after this returns; a group store
    /// that does not answer is given up on after `timeout` seconds.
    public func stopAndWait(timeout: Double = 2) {
        let running = worker.withLock { $0 }
        stop()
        if let running { _ = running.waitForEnd(timeout: timeout) }
    }

    public func stop() {
        trigger.finish()
        worker.withLock {
            $0?.cancel()
            $0 = nil
        }
        retry.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    // MARK: - The worker

    private func work() async {
        var store: (any GroupStore)?
        var watcher: Task<Void, Never>?
        var lastMark: Int64?
        var reported: ProfileDraft?
        var retryDelay = 1.0
        for await next in triggers {
            guard !Task.isCancelled else { break }
            if next == .sync {
                lastMark = nil
                reported = nil
            }
            do {
                if store == nil {
                    let opened = try location.open()
                    store = opened
                    watcher?.cancel()
                    watcher = watch(opened)
                    lastMark = nil
                }
                guard let store else { continue }
                let wanted = draft.withLock { $0 }
                if let wanted, wanted != reported {
                    try await reporter.send(wanted, to: store)
                    reported = wanted
                    update {
                        $0.problem = nil
                        $0.lastSyncedAt = self.clock.now()
                    }
                }
                if try await reporter.sendDays(to: store) > 0 { update { $0.unsyncedDays = 0 } }
                let mark = try await store.changeMark(code: membership.code)
                if mark != lastMark {
                    let today = wanted?.day ?? self.today()
                    let snapshot = try await reporter.snapshot(from: store, today: today)
                    update { $0.snapshot = snapshot }
                    lastMark = mark
                    // After the screen has it: a large group takes a moment to write.
                    reporter.cache(snapshot)
                }
                retryDelay = 1
                update { $0.offline = false }
            } catch {
                if error.isTransient {
                    if !status.offline { logger.warning("group store unreachable: \(error.message)") }
                    store = nil
                    update { $0.offline = true }
                    scheduleRetry(after: retryDelay)
                    retryDelay = min(retryDelay * 2, Self.maximumRetryDelay)
                } else {
                    logger.error("group store: \(error.message)")
                    update { $0.problem = error.message }
                }
            }
        }
        watcher?.cancel()
    }

    /// The user's day now, on their calendar (day-start hour included), for a snapshot read
    /// before anything was reported.
    private func today() -> LocalDate {
        let hour = (try? local.settings())?.dayStartHour ?? 0
        return DayCalendar(timeZone: .current, dayStartHour: hour).day(containing: clock.now())
    }

    private func watch(_ store: any GroupStore) -> Task<Void, Never> {
        let code = membership.code
        let trigger = self.trigger
        return Task.detached {
            for await _ in store.changes(code: code) {
                if Task.isCancelled { break }
                trigger.yield(.changed)
            }
        }
    }

    private func scheduleRetry(after seconds: Double) {
        let trigger = self.trigger
        let task = Task.detached {
            try? await Task.sleep(for: .seconds(seconds))
            trigger.yield(.retry)
        }
        retry.withLock {
            $0?.cancel()
            $0 = task
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
