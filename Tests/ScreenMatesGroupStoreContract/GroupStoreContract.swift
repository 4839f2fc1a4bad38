// Over 400 lines on purpose: the one contract both group stores must keep, read top to bottom
// as their specification; split, it would no longer read as one.
import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteGroupStore
import ScreenMatesTestSupport
import Synchronization
import Testing

/// Makes a new, empty store.
package typealias GroupStoreFactory = @Sendable () async throws -> any GroupStore

/// Makes a new, empty store and a second, independent connection to the same store: what
/// another process using it sees.
package typealias SharedGroupStoreFactory = @Sendable () async throws -> (any GroupStore, any GroupStore)

/// What every `GroupStore` must do, written once and run against each implementation (the
/// SQLite file now, a PostgreSQL server later): each check takes a factory and asks it for a
/// fresh store, so checks never see each other's groups.
///
/// Instants are whole seconds, which every engine keeps exactly.
package enum GroupStoreContract {
    /// How a check gets its stores.
    package struct Fixture: Sendable {
        package var fresh: GroupStoreFactory
        package var shared: SharedGroupStoreFactory

        package init(fresh: @escaping GroupStoreFactory, shared: @escaping SharedGroupStoreFactory) {
            self.fresh = fresh
            self.shared = shared
        }
    }

    /// One named check, so an implementation's suite runs them all as one parameterised test.
    package struct Check: Sendable, CustomTestStringConvertible {
        let name: String
        package let run: @Sendable (Fixture) async throws -> Void

        init(_ name: String, _ run: @escaping @Sendable (Fixture) async throws -> Void) {
            self.name = name
            self.run = run
        }

        package var testDescription: String { name }
    }

    package static let all: [Check] = groups + games + account + changes + machines

    /// Groups, members, day totals, the rate limit and the change signal.
    static let groups: [Check] = [
        Check("create gives a valid code and the creator as only member") { try await createGivesAValidCode($0.fresh) },
        Check("codes are unique across many creates") { try await codesAreUnique($0.fresh) },
        Check("an invalid goal is refused") { try await invalidGoalIsRefused($0.fresh) },
        Check("an unknown code finds nothing") { try await unknownCodeFindsNothing($0.fresh) },
        Check("join adds a member, twice is once") { try await joinAddsAMemberOnce($0.fresh) },
        Check("a taken name is refused and changes nothing") { try await takenNameIsRefused($0.fresh) },
        Check("wrong codes are rate-limited per user") { try await wrongCodesAreRateLimited($0.fresh) },
        Check("the rate limit lifts after ten minutes") { try await rateLimitLifts($0.fresh) },
        Check("leave removes the member; the last one out removes the group") {
            try await leaveRemovesTheMember($0.fresh)
        },
        Check("a profile is stored only with a newer version") { try await onlyNewerProfilesAreStored($0.fresh) },
        Check("the newest version wins, whatever the order") { try await newestVersionWins($0.fresh) },
        Check("day totals keep the newest version per day, and add up by member") {
            try await dayTotalsKeepTheNewest($0.fresh)
        },
        Check("the change mark moves on every write") { try await changeMarkMovesOnEveryWrite($0.fresh) },
        Check("changes yield when another connection writes") { try await changesYieldOnWrites($0.shared) },
        Check("changes stay quiet without writes") { try await changesStayQuiet($0.fresh) },
    ]

    // MARK: - Fixtures

    package static let start = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, whole seconds.
    package static let today = LocalDate(year: 2026, month: 11, day: 18)!

    package static func at(_ seconds: Int) -> Date { start.addingTimeInterval(TimeInterval(seconds)) }

    package static func name(_ text: String) -> DisplayName { try! DisplayName(validating: text) }

    package static func profile(
        _ userID: String, _ displayName: String, version: Int64 = 1, blocks: Int = 0, streak: Int = 0,
        lastActive: Date? = nil, day: LocalDate = today, updated: Date = start
    ) -> MemberProfile {
        MemberProfile(
            userID: UserID(userID), displayName: name(displayName), blocksToday: blocks, day: day, streak: streak,
            lastActive: lastActive, lastUpdated: updated, version: version)
    }

    package static let ana = profile("ana23456", "ana", blocks: 3, streak: 4, lastActive: at(-60))
    package static let bo = profile("bo234567", "bo", blocks: 1, streak: 9)

    /// A code that no store has handed out (a fresh store has none).
    package static let unusedCode = try! GroupCode(validating: "ZZZZ22")

    package static func newGroup(in store: any GroupStore, goal: Int = 8) async throws -> Group {
        try await store.createGroup(dailyGoalBlocks: goal, creator: ana, now: start)
    }

    package static func expectError(
        _ expected: GroupStoreError, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("expected \(expected), got no error", sourceLocation: sourceLocation)
        } catch let error as GroupStoreError {
            #expect(error == expected, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Groups

    static func createGivesAValidCode(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store, goal: 6)
        #expect(group.code.value.count == 6)
        #expect(group.code.value.allSatisfy { GroupCode.alphabet.contains($0) })
        #expect(try GroupCode(validating: group.code.value.lowercased()) == group.code)
        #expect(group.memberCount == 1)
        #expect(group.dailyGoalBlocks == 6)
        #expect(group.createdAt == start)
        #expect(try await store.members(code: group.code) == [ana])
        #expect(try await store.group(code: group.code, userID: bo.userID, now: start) == group)
    }

    static func codesAreUnique(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        var codes = Set<GroupCode>()
        for index in 0..<150 {
            let creator = profile("user\(index)", "creator\(index)")
            codes.insert(try await store.createGroup(dailyGoalBlocks: 8, creator: creator, now: start).code)
        }
        #expect(codes.count == 150)
        for code in codes.prefix(5) {
            #expect(try await store.group(code: code, userID: UserID("checker"), now: start)?.memberCount == 1)
        }
    }

    static func invalidGoalIsRefused(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        for goal in [0, -1, 97, Int.max] {
            do {
                _ = try await store.createGroup(dailyGoalBlocks: goal, creator: ana, now: start)
                Issue.record("a goal of \(goal) was accepted")
            } catch {
                guard case .invalidValue(let detail) = error else {
                    Issue.record("a goal of \(goal) gave \(error)")
                    continue
                }
                #expect(detail.contains("1–96"))
            }
        }
        #expect(try await newGroup(in: store, goal: 1).dailyGoalBlocks == 1)
        #expect(try await newGroup(in: store, goal: 96).dailyGoalBlocks == 96)
    }

    static func unknownCodeFindsNothing(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        _ = try await newGroup(in: store)
        #expect(try await store.group(code: unusedCode, userID: bo.userID, now: start) == nil)
        await expectError(.unknownCode(unusedCode)) {
            _ = try await store.join(code: unusedCode, member: bo, now: start)
        }
        await expectError(.unknownCode(unusedCode)) { _ = try await store.members(code: unusedCode) }
        await expectError(.unknownCode(unusedCode)) { _ = try await store.changeMark(code: unusedCode) }
    }

    // MARK: - Members

    static func joinAddsAMemberOnce(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        let joined = try await store.join(code: group.code, member: bo, now: at(10))
        #expect(joined.memberCount == 2)
        #expect(joined.code == group.code && joined.createdAt == group.createdAt)
        #expect(try await store.join(code: group.code, member: bo, now: at(20)).memberCount == 2)
        #expect(try await store.members(code: group.code) == [ana, bo])
        // Joining again with a newer profile updates it, as an upsert would.
        var newer = bo
        newer.blocksToday = 5
        newer.version = 2
        #expect(try await store.join(code: group.code, member: newer, now: at(30)).memberCount == 2)
        #expect(try await store.members(code: group.code) == [ana, newer])
        // The code is case-insensitive on input: a lower-cased code names the same group.
        let typed = try GroupCode(validating: " " + group.code.value.lowercased() + " ")
        #expect(try await store.group(code: typed, userID: bo.userID, now: at(40)) == joined)
    }

    static func takenNameIsRefused(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        let mark = try await store.changeMark(code: group.code)
        let clash = profile("cy234567", "ANA")
        await expectError(.nameTaken(clash.displayName)) {
            _ = try await store.join(code: group.code, member: clash, now: start)
        }
        // Renaming onto another member's name (in any case) is refused too.
        var renamed = bo
        renamed.displayName = name("Ana")
        renamed.version = 2
        await expectError(.nameTaken(renamed.displayName)) { try await store.upsertProfile(renamed) }
        #expect(try await store.members(code: group.code) == [ana, bo])
        #expect(try await store.changeMark(code: group.code) == mark)
        // A member may change the case of their own name.
        var recased = bo
        recased.displayName = name("Bo")
        recased.version = 3
        #expect(try await store.upsertProfile(recased))
        #expect(try await store.members(code: group.code).last?.displayName == name("Bo"))
        // Names are unique within a group only.
        let other = try await store.createGroup(dailyGoalBlocks: 8, creator: profile("cy234567", "ana"), now: start)
        #expect(other.memberCount == 1)
    }

    // MARK: - Rate limit

    static func wrongCodesAreRateLimited(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        let guesser = profile("guesser2", "guesser")
        // Five wrong codes, by lookup and by join, within a few seconds.
        for attempt in 0..<3 {
            #expect(try await store.group(code: unusedCode, userID: guesser.userID, now: at(attempt)) == nil)
        }
        for attempt in 3..<5 {
            await expectError(.unknownCode(unusedCode)) {
                _ = try await store.join(code: unusedCode, member: guesser, now: at(attempt))
            }
        }
        // Then even the right code is refused, with about ten minutes to wait.
        do {
            _ = try await store.group(code: group.code, userID: guesser.userID, now: at(5))
            Issue.record("a sixth lookup was not refused")
        } catch {
            guard case .tooManyAttempts(let seconds) = error else { throw error }
            #expect((590...600).contains(seconds))
            #expect(error.message.contains("10 minutes"))
        }
        await expectError(.tooManyAttempts(retryAfterSeconds: 594)) {
            _ = try await store.join(code: group.code, member: guesser, now: at(6))
        }
        #expect(try await store.members(code: group.code) == [ana])
        // Another user is not limited.
        #expect(try await store.group(code: group.code, userID: bo.userID, now: at(7)) == group)
        #expect(try await store.join(code: group.code, member: bo, now: at(8)).memberCount == 2)
        // A successful lookup does not wipe earlier failures.
        let careless = UserID("careless")
        for attempt in 0..<4 { _ = try await store.group(code: unusedCode, userID: careless, now: at(attempt)) }
        #expect(try await store.group(code: group.code, userID: careless, now: at(4))?.code == group.code)
        #expect(try await store.group(code: unusedCode, userID: careless, now: at(5)) == nil)
        await expectError(.tooManyAttempts(retryAfterSeconds: 594)) {
            _ = try await store.group(code: group.code, userID: careless, now: at(6))
        }
    }

    static func rateLimitLifts(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        let userID = UserID("guesser2")
        for attempt in 0..<5 { _ = try await store.group(code: unusedCode, userID: userID, now: at(attempt)) }
        await expectError(.tooManyAttempts(retryAfterSeconds: 1)) {
            _ = try await store.group(code: group.code, userID: userID, now: at(599))
        }
        // Ten minutes after the first failure only four remain in the window.
        #expect(try await store.group(code: group.code, userID: userID, now: at(600)) == group)
        // A fifth wrong code in the window limits again, until the oldest of them leaves it.
        #expect(try await store.group(code: unusedCode, userID: userID, now: at(600)) == nil)
        await expectError(.tooManyAttempts(retryAfterSeconds: 1)) {
            _ = try await store.group(code: group.code, userID: userID, now: at(600))
        }
        // Long after, all is forgotten.
        #expect(
            try await store.join(code: group.code, member: profile(userID.value, "guesser"), now: at(1300)).memberCount
                == 2)
    }

    // MARK: - Leaving

    static func leaveRemovesTheMember(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        try await store.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: today.adding(days: -1), viceBlocks: 3, goalBlocks: 8, version: 1)],
            code: group.code)
        try await store.leave(code: group.code, userID: bo.userID)
        #expect(try await store.members(code: group.code) == [ana])
        #expect(try await store.group(code: group.code, userID: bo.userID, now: start)?.memberCount == 1)
        #expect(try await store.dayTotals(code: group.code, days: today.adding(days: -7)...today).isEmpty)
        // Leaving again changes nothing; a profile from someone who left is refused.
        try await store.leave(code: group.code, userID: bo.userID)
        var later = bo
        later.version = 5
        await expectError(.notAMember(code: group.code)) { try await store.upsertProfile(later) }
        // The last one out takes the group along: its code names no group any more.
        try await store.leave(code: group.code, userID: ana.userID)
        #expect(try await store.group(code: group.code, userID: bo.userID, now: start) == nil)
        await expectError(.unknownCode(group.code)) {
            _ = try await store.join(code: group.code, member: later, now: start)
        }
        await expectError(.unknownCode(unusedCode)) { try await store.leave(code: unusedCode, userID: bo.userID) }
    }

    // MARK: - Versions

    static func onlyNewerProfilesAreStored(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        var next = ana
        next.version = 2
        next.blocksToday = 6
        next.lastActive = at(100)
        next.lastUpdated = at(100)
        #expect(try await store.upsertProfile(next))
        #expect(try await store.members(code: group.code) == [next])
        var equal = next
        equal.blocksToday = 99
        #expect(try await !store.upsertProfile(equal))
        var older = next
        older.version = 1
        older.blocksToday = 0
        #expect(try await !store.upsertProfile(older))
        #expect(try await store.members(code: group.code) == [next])
        await expectError(.notAMember(code: group.code)) {
            _ = try await store.join(code: group.code, member: bo, now: start)
            try await store.leave(code: group.code, userID: bo.userID)
            try await store.upsertProfile(bo)
        }
    }

    /// A property: whatever order versions arrive in (repeats included), the stored profile is
    /// the first one that came with the highest version, and each upsert says whether it won.
    static func newestVersionWins(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let versions = Generator<[Int64], Shrink.None<[Int64]>> { rng in
            let distinct = (1...Int64.random(in: 1...12, using: &rng)).map { $0 }
            let repeats = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int64.random(in: -2...14, using: &rng) }
            return (distinct + repeats).shuffled(using: &rng)
        }
        let names = ["bo", "Bo", "bobby", "b_2"]
        await propertyCheck(count: 100, input: versions) { versions in
            // A new group and member each time: the member is in this group only.
            let group = try await newGroup(in: store)
            let userID = "bo" + UUID().uuidString.prefix(8).lowercased()
            var expected = profile(userID, "bo", version: 0)
            _ = try await store.join(code: group.code, member: expected, now: start)
            for (index, version) in versions.enumerated() {
                let update = profile(
                    userID, names[index % names.count], version: version, blocks: index, streak: Int(version & 7),
                    lastActive: index % 2 == 0 ? nil : at(index), day: today.adding(days: index % 3),
                    updated: at(1000 + index))
                let stored = try await store.upsertProfile(update)
                #expect(stored == (version > expected.version))
                if stored { expected = update }
            }
            #expect(try await store.members(code: group.code) == [ana, expected])
        }
    }

    static func dayTotalsKeepTheNewest(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        func total(_ userID: UserID, _ offset: Int, vice: Int, version: Int64) -> DayTotal {
            DayTotal(
                userID: userID, date: today.adding(days: offset), viceBlocks: vice, goalBlocks: 8, version: version)
        }
        let first =
            (1...6).map { total(ana.userID, -$0, vice: $0, version: 2) } + [total(bo.userID, -2, vice: 4, version: 2)]
        try await store.upsertDayTotals(first, code: group.code)
        let mark = try await store.changeMark(code: group.code)
        // Older and equal versions change nothing; a stranger's totals are ignored.
        try await store.upsertDayTotals(
            [
                total(ana.userID, -1, vice: 50, version: 1), total(ana.userID, -2, vice: 50, version: 2),
                total(UserID("stranger"), -2, vice: 7, version: 9),
            ], code: group.code)
        #expect(try await store.changeMark(code: group.code) == mark)
        // A newer one replaces its day only.
        try await store.upsertDayTotals([total(ana.userID, -3, vice: 0, version: 3)], code: group.code)
        #expect(try await store.changeMark(code: group.code) > mark)
        let range = today.adding(days: -4)...today.adding(days: -2)
        let fetched = try await store.dayTotals(code: group.code, days: range)
        #expect(
            fetched == [
                total(ana.userID, -4, vice: 4, version: 2), total(ana.userID, -3, vice: 0, version: 3),
                total(ana.userID, -2, vice: 2, version: 2), total(bo.userID, -2, vice: 4, version: 2),
            ])
        #expect(try await store.dayTotals(code: group.code, days: today...today.adding(days: 3)).isEmpty)
        #expect(try await store.dayTotals(code: group.code, days: today.adding(days: -30)...today).count == 7)
        await expectError(.unknownCode(unusedCode)) { try await store.upsertDayTotals(first, code: unusedCode) }
        // Sums over a range add each member's stored days in it, and only those.
        #expect(try await store.blockSums(code: group.code, days: range) == [ana.userID: 6, bo.userID: 4])
        #expect(
            try await store.blockSums(code: group.code, days: today.adding(days: -30)...today)
                == [ana.userID: 1 + 2 + 0 + 4 + 5 + 6, bo.userID: 4])
        #expect(try await store.blockSums(code: group.code, days: today...today.adding(days: 3)).isEmpty)
        await expectError(.unknownCode(unusedCode)) { _ = try await store.blockSums(code: unusedCode, days: range) }
    }

    // MARK: - Change signal

    static func changeMarkMovesOnEveryWrite(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        var marks = [try await store.changeMark(code: group.code)]
        func expectMoved(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let mark = try await store.changeMark(code: group.code)
            #expect(mark > marks.last!, "\(what) should move the change mark", sourceLocation: sourceLocation)
            marks.append(mark)
        }
        _ = try await store.join(code: group.code, member: bo, now: start)
        try await expectMoved("join")
        var update = bo
        update.version = 2
        try await store.upsertProfile(update)
        try await expectMoved("a profile update")
        try await store.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: today, viceBlocks: 1, goalBlocks: 8, version: 1)], code: group.code)
        try await expectMoved("day totals")
        try await store.leave(code: group.code, userID: bo.userID)
        try await expectMoved("leave")
        // Reads leave it alone; so does a write to another group.
        _ = try await store.members(code: group.code)
        _ = try await store.group(code: group.code, userID: bo.userID, now: start)
        _ = try await store.createGroup(dailyGoalBlocks: 8, creator: bo, now: start)
        #expect(try await store.changeMark(code: group.code) == marks.last!)
    }

    /// Counts a stream's yields from a task of its own.
    package final class YieldCounter: Sendable {
        private let count = Mutex(0)
        private let ended = Mutex(false)
        private let task = Mutex<Task<Void, Never>?>(nil)

        package init(_ stream: AsyncStream<Void>) {
            let started = Task { [self] in
                for await _ in stream { count.withLock { $0 += 1 } }
                ended.withLock { $0 = true }
            }
            task.withLock { $0 = started }
        }

        package var yields: Int { count.withLock { $0 } }
        package var hasEnded: Bool { ended.withLock { $0 } }

        /// Waits until there are more than `count` yields or `timeout` passes; true if there were.
        package func waitForMore(than count: Int, timeout: Duration) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            while yields <= count {
                guard ContinuousClock.now < deadline else { return false }
                try await Task.sleep(for: .milliseconds(10))
            }
            return true
        }

        /// Waits for the stream to end by itself (its consumer is not cancelled).
        package func waitForEnd() async {
            let running = task.withLock { $0 }
            await running?.value
        }

        /// Cancels the consuming task and waits for the stream to end.
        package func cancel() async {
            let running = task.withLock { $0 }
            running?.cancel()
            await running?.value
        }
    }

    static func changesYieldOnWrites(_ makeStores: SharedGroupStoreFactory) async throws {
        let (watching, writing) = try await makeStores()
        let group = try await newGroup(in: watching)
        _ = try await writing.join(code: group.code, member: bo, now: start)
        let counter = YieldCounter(watching.changes(code: group.code))
        #expect(try await counter.waitForMore(than: 0, timeout: .seconds(30)), "a first yield, for a first look")
        try await Task.sleep(for: .milliseconds(100))
        let before = counter.yields
        for version in Int64(2)...4 {
            var update = bo
            update.version = version
            update.blocksToday = Int(version)
            try await writing.upsertProfile(update)
            #expect(try await counter.waitForMore(than: before + Int(version) - 2, timeout: .seconds(30)))
            try await Task.sleep(for: .milliseconds(500))
        }
        // Day totals too, from the watching connection itself.
        let seen = counter.yields
        try await watching.upsertDayTotals(
            [DayTotal(userID: ana.userID, date: today, viceBlocks: 2, goalBlocks: 8, version: 1)], code: group.code)
        #expect(try await counter.waitForMore(than: seen, timeout: .seconds(30)))
        await counter.cancel()
        #expect(counter.hasEnded)
    }

    static func changesStayQuiet(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        let quiet = try await store.createGroup(dailyGoalBlocks: 8, creator: bo, now: start)
        let counter = YieldCounter(store.changes(code: quiet.code))
        #expect(try await counter.waitForMore(than: 0, timeout: .seconds(30)), "a first yield, for a first look")
        // Writes to another group wake the watch but must not count as changes of this one.
        for version in Int64(2)...5 {
            var update = ana
            update.version = version
            try await store.upsertProfile(update)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await store.members(code: group.code).first?.version == 5)
        try await Task.sleep(for: .seconds(2))
        #expect(counter.yields <= 3, "a quiet group yielded \(counter.yields) times in 2 s")
        await counter.cancel()
        #expect(counter.hasEnded)
    }
}
