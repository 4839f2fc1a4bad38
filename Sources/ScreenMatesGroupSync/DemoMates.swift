import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesMonitor
import Synchronization

/// Simulated group-mates in a group on a shared file, all simulated in this process
/// (`SimulatedMates`) and written straight to the group store: what `dashboard --demo` brings
/// along in the demo's own group store, and what `screenmates demo --members` adds to a group of
/// the user's own.
///
/// The terms are the same for both: mates join only a group whose other members are mates of this
/// user (never a group with real people in it); their names never collide with anyone's in the
/// group; a start that fails takes out the mates it added, `leave()` takes out all of them, and a
/// later start removes whatever an earlier run left behind (their user ids are the same each run).
public final class DemoMates: Sendable {
    /// The most mates one demo brings.
    public static let maximum = 200

    private let store: any GroupStore
    private let code: GroupCode
    private let clock: any AppClock
    private let logger: Logger
    private let crowd: Mutex<SimulatedMates>

    /// The mates' names, in the group's order.
    public var names: [String] { crowd.withLock { $0.mates.map(\.name.value) } }
    public var count: Int { crowd.withLock { $0.mates.count } }

    private init(
        store: any GroupStore, code: GroupCode, clock: any AppClock, logger: Logger, crowd: SimulatedMates
    ) {
        self.store = store
        self.code = code
        self.clock = clock
        self.logger = logger
        self.crowd = Mutex(crowd)
    }

    // MARK: - Starting

    /// Why mates cannot join a group.
    static func refusal(for location: GroupStoreLocation) -> String? {
        guard case .postgres = location else { return nil }
        return
            "Simulated mates join groups on a shared file only: on a PostgreSQL server every member is a verified "
            + "identity. `screenmates dashboard --demo` brings mates of its own."
    }

    /// Puts `count` mates in the group `code` that `user` is in: the mates an earlier run left there
    /// are taken out first; a group with anyone else in it is refused. The caller runs them
    /// (`run`) and takes them out again (`leave`).
    public static func join(
        count: Int, location: GroupStoreLocation, code: GroupCode, user: UserID, seed: UInt64, profile: UsageProfile,
        blockMinutes: Int, clock: any AppClock, calendar: DayCalendar, logger: Logger
    ) async throws(AppError) -> DemoMates {
        guard (1...maximum).contains(count) else {
            throw .usage("Simulated mates: 1 to \(maximum); \(count) is not.")
        }
        if let refusal = refusal(for: location) { throw AppError(refusal) }
        let store: any GroupStore
        do {
            store = try await location.open()
        } catch {
            throw AppError(error.message)
        }
        let now = clock.now()
        let crowd: SimulatedMates
        do throws(AppError) {
            let ids = Self.ids(for: user)
            let members = try await groupStore { () throws(GroupStoreError) in
                try await store.members(code: code, changedAfter: nil)
            }
            guard members.contains(where: { $0.userID == user }) else {
                throw AppError(GroupStoreError.notAMember(code: code).message)
            }
            // Mates an earlier run left behind go first (their days with them); then nobody but
            // the user may be in the group.
            let known = Set(ids)
            for member in members where known.contains(member.userID) {
                try await groupStore { () throws(GroupStoreError) in
                    try await store.leave(code: code, userID: member.userID)
                }
            }
            let others = members.filter { $0.userID != user && !known.contains($0.userID) }
            guard others.isEmpty else {
                throw AppError(
                    "Group \(code) has \(others.count) other member\(others.count == 1 ? "" : "s"): simulated mates join only a group of your own. Create one (`screenmates group create`), or watch mates in `screenmates dashboard --demo`."
                )
            }
            let taken = Set(members.filter { $0.userID == user }.map(\.displayName.uniquenessKey))
            let names = Array(GroupDemo.mateNames().lazy.filter { !taken.contains($0) }.prefix(count))
                .map { try! DisplayName(validating: $0) }
            let group = try await groupStore { () throws(GroupStoreError) in
                try await store.group(code: code, userID: user, now: now)
            }
            guard let group else { throw AppError(GroupStoreError.unknownCode(code).message) }
            var made = SimulatedMates(
                names: names, ids: Array(ids.prefix(names.count)), seed: seed, profile: profile,
                blockMinutes: blockMinutes, goal: group.dailyGoalBlocks, calendar: calendar, now: now)
            _ = made.advance(to: now)
            crowd = made
        } catch {
            await store.close()
            throw error
        }
        // From here the mates own the store: `leave` takes out any that joined, and closes it.
        let mates = DemoMates(store: store, code: code, clock: clock, logger: logger, crowd: crowd)
        do throws(AppError) {
            try await mates.enter(history: calendar, today: calendar.day(containing: now))
        } catch {
            await mates.leave()
            throw error
        }
        return mates
    }

    /// The user ids the mates of `user` have: the same on every run, so a later run finds what an
    /// earlier one left behind. Not ids a member makes (those have no `-`).
    static func ids(for user: UserID) -> [UserID] {
        (0..<maximum).map { index in
            var generator = SeededGenerator(
                seed: user.value.utf8.reduce(UInt64(index) &+ 0xCBF2_9CE4_8422_2325) {
                    ($0 ^ UInt64($1)) &* 0x100_0000_01B3
                })
            let text = String(
                (0..<UserID.generatedLength).map { _ in UserID.generatedAlphabet.randomElement(using: &generator)! })
            return try! UserID(validating: "sim-" + text)
        }
    }

    /// Joins every mate with today's numbers, and sends the finished days of this week and month.
    private func enter(history calendar: DayCalendar, today: LocalDate) async throws(AppError) {
        let now = clock.now()
        let profiles = crowd.withLock { $0.mates }.map { profile($0, now: now) }
        for profile in profiles {
            try await groupStore { () throws(GroupStoreError) in
                _ = try await store.join(code: code, member: profile, now: now)
            }
        }
        let first = min(today.startOfWeek, today.startOfMonth)
        guard first < today else { return }
        let days = crowd.withLock { $0.history(first...today.adding(days: -1)) }
        try await send(days)
    }

    // MARK: - Running

    /// Reports the mates' numbers as the app clock moves, until the task is cancelled: a mate's
    /// profile when its blocks, streak or day change, its finished days. A store that is busy or
    /// away is tried again at the next block.
    public func run() async {
        var unsent = Set<Int>()
        var unsentDays: [SimulatedMates.FinishedDay] = []
        while !Task.isCancelled {
            let now = clock.now()
            let advance = crowd.withLock { $0.advance(to: now) }
            unsent.formUnion(advance.changed)
            unsentDays += advance.finished
            if !unsentDays.isEmpty {
                do throws(AppError) {
                    try await send(unsentDays)
                    unsentDays = []
                } catch {
                    logger.warning("simulated mates: days not sent (\(error.message)); tried again")
                }
            }
            for index in unsent.sorted() {
                let mate = crowd.withLock { $0.mates[index] }
                let profile = profile(mate, now: now)
                do throws(AppError) {
                    try await groupStore { () throws(GroupStoreError) in _ = try await store.upsertProfile(profile) }
                    unsent.remove(index)
                } catch {
                    logger.warning("simulated mates: \(profile.displayName) not sent (\(error.message)); tried again")
                    break
                }
            }
            // The next block's end, or a second at most: the clock may be moved or jump a day.
            let wait = clock.realSeconds(until: crowd.withLock { $0.nextBlockEnd(after: now) })
            do { try await Task.sleep(for: .seconds(min(1, max(0.02, wait)))) } catch { break }
        }
    }

    /// Takes every mate out of the group (with their days), and closes the store. Also from a
    /// cancelled task (a dashboard ending): the store's work runs in a task of its own, which
    /// this call awaits.
    public func leave() async {
        let ids = crowd.withLock { $0.mates.map(\.userID) }
        let (store, code, logger) = (self.store, self.code, self.logger)
        await Task {
            for id in ids {
                do throws(GroupStoreError) {
                    try await store.leave(code: code, userID: id)
                } catch {
                    logger.warning("simulated mate \(id) not taken out of \(code): \(error.message)")
                }
            }
            await store.close()
        }.value
    }

    // MARK: - Helpers

    private let versions = Atomic<Int64>(0)

    /// A version newer than any this process wrote before: the clock's milliseconds, counted on.
    private func nextVersion() -> Int64 {
        let floor = Int64(Date().timeIntervalSince1970 * 1000)
        var current = versions.load(ordering: .relaxed)
        while true {
            let next = max(current + 1, floor)
            let (exchanged, original) = versions.compareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged { return next }
            current = original
        }
    }

    private func profile(_ mate: SimulatedMates.Mate, now: Date) -> MemberProfile {
        MemberProfile(
            userID: mate.userID, displayName: mate.name, blocksToday: mate.viceBlocks, day: mate.day,
            streak: mate.streak, lastActive: mate.lastActive, lastUpdated: now, version: nextVersion())
    }

    private func send(_ days: [SimulatedMates.FinishedDay]) async throws(AppError) {
        let goal = crowd.withLock { $0.goal }
        let totals = days.map {
            DayTotal(
                userID: $0.userID, date: $0.date, viceBlocks: $0.viceBlocks, goalBlocks: goal, version: nextVersion())
        }
        try await groupStore { () throws(GroupStoreError) in try await store.upsertDayTotals(totals, code: code) }
    }

    private static func groupStore<T>(_ body: () async throws(GroupStoreError) -> T) async throws(AppError) -> T {
        do {
            return try await body()
        } catch {
            throw AppError(error.message)
        }
    }

    private func groupStore<T>(_ body: () async throws(GroupStoreError) -> T) async throws(AppError) -> T {
        try await Self.groupStore(body)
    }
}
