import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHomeTestSupport
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesGroupSync

/// A member's side of the group's games against a real group-store file: their part of a group
/// challenge decided in their home from their own blocks (late ones included) and reported once,
/// whatever restarts; the week settled once for the group and booked once into each ledger.
@Suite struct GroupGamesTests {
    static let utc = DayCalendar(timeZone: TimeZone(identifier: "UTC")!)

    /// Two homes and one group-store file in a temporary directory, on one clock.
    final class TwoHomes {
        let directory = NSTemporaryDirectory() + "screenmates-games-" + UUID().uuidString
        let clock: ManualClock
        let store: any GroupStore
        let code: GroupCode
        let ana: LocalStore
        let bo: LocalStore

        init(createdAt: Date) async throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            clock = ManualClock(createdAt)
            store = try await GroupStoreLocation.sqlite(path: directory + "/group-store.sqlite").open(creating: true)
            let directory = self.directory
            func home(_ name: String, _ userID: String) throws -> (LocalStore, MemberProfile) {
                let local = try LocalStore.open(at: "\(directory)/\(name).sqlite")
                var settings = try local.createProfileIfNeeded(
                    userID: userID, trackingStart: GroupGamesTests.utc.day(containing: createdAt),
                    apps: [TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice)])
                settings.displayName = try DisplayName(validating: name)
                try local.updateSettings(settings)
                let profile = MemberProfile(
                    userID: UserID(userID), displayName: settings.displayName!, blocksToday: 0,
                    day: GroupGamesTests.utc.day(containing: createdAt), streak: 0, lastActive: nil,
                    lastUpdated: createdAt, version: 1)
                return (local, profile)
            }
            let (ana, anaProfile) = try home("ana", "ana23456")
            let (bo, boProfile) = try home("bo", "bo234567")
            let group = try await store.createGroup(dailyGoalBlocks: 8, creator: anaProfile, now: createdAt)
            _ = try await store.join(code: group.code, member: boProfile, now: createdAt)
            for local in [ana, bo] { try local.setGroup(GroupMembership(code: group.code, dailyGoalBlocks: 8)) }
            (self.ana, self.bo, code) = (ana, bo, group.code)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func games(_ local: LocalStore) throws -> GroupGames {
            GroupGames(
                local: local, membership: GroupMembership(code: code, dailyGoalBlocks: 8),
                userID: try local.settings()!.userID, clock: clock, calendar: GroupGamesTests.utc)
        }

        func at(_ text: String) -> Date { TimeFormat.parseInstant(text, timeZone: .gmt)! }

        func vice(_ local: LocalStore, at text: String) throws {
            try local.record([
                UsageEvent(id: UUID(), appID: "tiktok", category: .vice, seconds: 900, occurredAt: at(text))
            ])
        }
    }

    @Test func oneBreaksAGroupChallengeAndTheOtherSeesItOnceAndLateBlocksCount() async throws {
        let group = try await TwoHomes(createdAt: TimeFormat.parseInstant("2026-11-21T08:00", timeZone: .gmt)!)
        let first = LocalDate(iso8601: "2026-11-22")!
        let shared = try await group.games(group.ana).create(
            Challenge(
                id: "", rule: .dailyBlocks(max: 1, target: .allVice), firstDay: first, days: 2, reward: 50,
                penalty: 25), in: group.store)
        #expect(shared.id.count == 6)
        group.clock.set(group.at("2026-11-21T20:00"))
        let joined = try await group.games(group.bo).join(id: shared.id, in: group.store)
        #expect(joined.startsAt == nil, "joined before its first day: every block of it counts")

        // Bo's second block on the first day breaks it, in bo's home.
        try group.vice(group.bo, at: "2026-11-22T09:00")
        try group.vice(group.bo, at: "2026-11-22T10:00")
        group.clock.set(group.at("2026-11-22T12:00"))
        let reported = try await group.games(group.bo).exchange(with: group.store)
        #expect(reported.notices.map(\.kind) == [.challenge(id: shared.id, outcome: "broken")])
        let mark = try await group.store.changeMark(code: group.code)

        // Ana's exchange shows it; she is still in.
        let seen = try await group.games(group.ana).exchange(with: group.store).snapshot
        let board = try #require(seen.boards.first { $0.challenge.id == shared.id })
        let states = Dictionary(uniqueKeysWithValues: board.participants.map { ($0.name, $0.state) })
        #expect(states == ["ana": .stillIn, "bo": .failed])
        #expect(board.participants.first { $0.name == "bo" }?.decidedAt == group.at("2026-11-22T10:00"))

        // A restart (a new exchange, the same home) reports nothing again.
        #expect(try group.bo.pendingReports(group: group.code, today: first).isEmpty)
        _ = try await group.games(group.bo).exchange(with: group.store)
        #expect(try await group.store.changeMark(code: group.code) == mark + 1, "only ana's standing moved it")

        // A block of ana's that arrives late, dated on the first day, breaks hers too.
        group.clock.set(group.at("2026-11-23T08:00"))
        try group.vice(group.ana, at: "2026-11-22T21:00")
        try group.vice(group.ana, at: "2026-11-22T22:00")
        let late = try await group.games(group.ana).exchange(with: group.store).snapshot
        let ana = try #require(late.boards.first?.participants.first { $0.name == "ana" })
        #expect(ana.state == .failed && ana.decidedAt == group.at("2026-11-22T22:00"))
        // Each lost the penalty once (all there was: nothing).
        for local in [group.ana, group.bo] {
            #expect(try local.coinLedger().transactions.map(\.asked) == [-25])
        }
    }

    /// What a member reads of the weeks is bounded whatever the group's size: twelve weeks up to a
    /// thousand members, then as many as hold 12,000 results, one at least.
    @Test func theWeeksReadHoldAtMostTwelveThousandResults() {
        let monday = LocalDate(year: 2026, month: 11, day: 23)!
        func weeks(_ members: Int) -> Int {
            let range = GroupGames.weeks(of: .standard, today: monday.adding(days: 3), members: members)
            #expect(range.upperBound == monday)
            return range.lowerBound.days(to: range.upperBound) / 7
        }
        #expect([0, 1, 3, 1000].map(weeks) == [12, 12, 12, 12])
        #expect([1001, 4000, 6001, 10000].map(weeks) == [11, 3, 1, 1])
    }

    @Test func aWeekIsSettledOnceForTheGroupAndBookedOnceIntoEachLedger() async throws {
        let monday = LocalDate(iso8601: "2021-03-01")!
        let group = try await TwoHomes(createdAt: TimeFormat.parseInstant("2021-03-01T07:00", timeZone: .gmt)!)
        func day(_ userID: String, _ offset: Int, vice: Int) -> DayTotal {
            DayTotal(
                userID: UserID(userID), date: monday.adding(days: offset), viceBlocks: vice, goalBlocks: 8, version: 1)
        }
        try await group.store.upsertDayTotals(
            (0..<7).map { day("ana23456", $0, vice: 2) } + (0..<5).map { day("bo234567", $0, vice: 9) },
            code: group.code)
        group.clock.set(group.at("2021-03-08T09:00"))
        for _ in 0..<2 {
            _ = try await group.games(group.ana).exchange(with: group.store)
            _ = try await group.games(group.bo).exchange(with: group.store)
        }
        #expect(try group.ana.coinLedger().transactions.map(\.amount) == [35])
        #expect(try group.bo.coinLedger().transactions.isEmpty, "bo's week waits for his last two days")
        // They arrive; the week is settled with their penalty, once.
        try await group.store.upsertDayTotals(
            [day("bo234567", 5, vice: 1), day("bo234567", 6, vice: 1)], code: group.code)
        let (snapshot, notices, _) = try await group.games(group.bo).exchange(with: group.store)
        _ = try await group.games(group.bo).exchange(with: group.store)
        #expect(notices.map(\.kind) == [.weekSettled("2021-03-01")])
        let entries = try group.bo.coinLedger().transactions
        #expect(entries.map(\.asked) == [2 * 5 - 5 * 10] && entries.map(\.amount) == [0], "never below zero")
        // The group sees each member's coins.
        #expect(
            Dictionary(uniqueKeysWithValues: snapshot.coins.map { ($0.userID, $0.coins) })
                == [UserID("ana23456"): 35, UserID("bo234567"): 0])
    }

    /// An exchange that does not settle (a mate's change, seen by the link) leaves a closed week
    /// as it is and still reads the games; the next one that settles books it.
    @Test func anExchangeThatDoesNotSettleLeavesTheWeeksAsTheyAre() async throws {
        let monday = LocalDate(iso8601: "2021-03-01")!
        let group = try await TwoHomes(createdAt: TimeFormat.parseInstant("2021-03-01T07:00", timeZone: .gmt)!)
        try await group.store.upsertDayTotals(
            (0..<7).map {
                DayTotal(
                    userID: UserID("ana23456"), date: monday.adding(days: $0), viceBlocks: 2, goalBlocks: 8, version: 1)
            }, code: group.code)
        group.clock.set(group.at("2021-03-08T09:00"))
        let read = try await group.games(group.ana).exchange(with: group.store, settling: false)
        #expect(read.snapshot.weeks.isEmpty, "no week settled: \(read.snapshot.weeks)")
        #expect(read.snapshot.rules == .standard, "the games were read")
        #expect(try group.ana.coinLedger().transactions.isEmpty)
        let settled = try await group.games(group.ana).exchange(with: group.store)
        #expect(settled.notices.map(\.kind) == [.weekSettled("2021-03-01")])
        #expect(try group.ana.coinLedger().transactions.map(\.amount) == [35])
    }

    /// The link settles when it wrote, when poked, and once a day; a mate's change alone does not
    /// make it settle again.
    @Test func theLinkSettlesOnlyWhenItSentFinishedDaysWasPokedOrTheDayIsNew() {
        let today = LocalDate(iso8601: "2026-11-23")!
        let yesterday = LocalDate(iso8601: "2026-11-22")!
        #expect(!GroupLinkStep.settles(poked: false, sentDays: false, settledOn: today, today: today))
        #expect(GroupLinkStep.settles(poked: false, sentDays: true, settledOn: today, today: today))
        #expect(GroupLinkStep.settles(poked: true, sentDays: false, settledOn: today, today: today))
        #expect(GroupLinkStep.settles(poked: false, sentDays: false, settledOn: yesterday, today: today))
        #expect(GroupLinkStep.settles(poked: false, sentDays: false, settledOn: nil, today: today))
    }

    /// A mate who breaks a group challenge the member takes part in is a notice in the member's
    /// home, once, however often the games are exchanged (and none for the member's own part).
    @Test func aMateBreakingAGroupChallengeIsANoticeOnce() async throws {
        let group = try await TwoHomes(createdAt: TimeFormat.parseInstant("2026-11-21T08:00", timeZone: .gmt)!)
        let shared = try await group.games(group.ana).create(
            Challenge(
                id: "", rule: .dailyBlocks(max: 0, target: .allVice), firstDay: LocalDate(iso8601: "2026-11-22")!,
                days: 2, reward: 5, penalty: 5), in: group.store)
        _ = try await group.games(group.bo).join(id: shared.id, in: group.store)
        try group.vice(group.bo, at: "2026-11-22T09:00")
        group.clock.set(group.at("2026-11-22T10:00"))
        _ = try await group.games(group.bo).exchange(with: group.store)
        let first = try await group.games(group.ana).exchange(with: group.store).notices
        #expect(first.map(\.kind) == [.mateChallenge(id: shared.id, userID: UserID("bo234567"))], "\(first)")
        #expect(first.first?.title == "bo broke a challenge")
        group.clock.set(group.at("2026-11-23T10:00"))
        let again = try await group.games(group.ana).exchange(with: group.store).notices
        #expect(!again.contains { if case .mateChallenge = $0.kind { true } else { false } }, "the next day too")
        let bos = try await group.games(group.bo).exchange(with: group.store).notices
        #expect(!bos.contains { if case .mateChallenge = $0.kind { true } else { false } }, "not for one's own part")
    }

    /// The group link's games are live: another member's report reaches it through the group's
    /// change signal, without a poke.
    @Test func theLinkSeesAnotherMembersReportLive() async throws {
        let group = try await TwoHomes(createdAt: TimeFormat.parseInstant("2026-11-21T08:00", timeZone: .gmt)!)
        let shared = try await group.games(group.ana).create(
            Challenge(
                id: "", rule: .dailyBlocks(max: 0, target: .allVice), firstDay: LocalDate(iso8601: "2026-11-22")!,
                days: 1, reward: 5, penalty: 5), in: group.store)
        _ = try await group.games(group.bo).join(id: shared.id, in: group.store)
        let games = try group.games(group.ana)
        let link = GroupLink(
            local: group.ana, location: .sqlite(path: group.directory + "/group-store.sqlite"),
            membership: games.membership, userID: games.userID, clock: group.clock,
            timeZone: .fixed(TimeZone(identifier: "UTC")!), logger: Logger(label: "test"), onChange: { _ in })
        let running = Task { await link.run() }
        defer { link.stop() }
        func boState() -> ParticipantState? {
            link.status.games?.boards.first?.participants.first { $0.name == "bo" }?.state
        }
        func waitFor(_ state: ParticipantState) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(30)
            while boState() != state {
                guard ContinuousClock.now < deadline else { return false }
                try await Task.sleep(for: .milliseconds(20))
            }
            return true
        }
        #expect(try await waitFor(.stillIn))
        try group.vice(group.bo, at: "2026-11-22T09:00")
        group.clock.set(group.at("2026-11-22T10:00"))
        _ = try await group.games(group.bo).exchange(with: group.store)
        #expect(try await waitFor(.failed), "bo's failure reached ana's link")
        link.stop()
        await running.value
    }

    /// After a whole read, an exchange reads only what changed since (a mate's part, a new
    /// challenge, a mate's coins) and holds exactly what a whole read holds.
    @Test func anExchangeCatchesUpFromTheChangesAndMatchesAWholeRead() async throws {
        let group = try await TwoHomes(createdAt: TimeFormat.parseInstant("2026-11-21T08:00", timeZone: .gmt)!)
        let first = LocalDate(iso8601: "2026-11-22")!
        let walk = try await group.games(group.ana).create(
            Challenge(
                id: "", rule: .dailyBlocks(max: 1, target: .allVice), firstDay: first, days: 2, reward: 50,
                penalty: 25), in: group.store)
        let seen = try await group.games(group.bo).exchange(with: group.store).snapshot
        #expect(seen.mark != nil && seen.boards.map(\.challenge.id) == [walk.id])

        // Bo joins, ana shares another challenge and earns a badge's worth of standing.
        group.clock.set(group.at("2026-11-21T20:00"))
        _ = try await group.games(group.bo).join(id: walk.id, in: group.store)
        let read = try await group.games(group.ana).create(
            Challenge(
                id: "", rule: .dailyBlocks(max: 2, target: .allVice), firstDay: first, days: 3, reward: 10,
                penalty: 5), in: group.store)
        _ = try await group.games(group.ana).exchange(with: group.store)

        let caughtUp = try await group.games(group.bo).exchange(with: group.store, previous: seen).snapshot
        let whole = try await group.games(group.bo).fetch(from: group.store)
        #expect(caughtUp.mark == whole.mark && caughtUp.mark! > seen.mark!)
        #expect(caughtUp.boards == whole.boards)
        #expect(caughtUp.boards.map(\.challenge.id) == [read.id, walk.id], "newest first")
        #expect(caughtUp.boards.last?.participants.map(\.name) == ["ana", "bo"])
        #expect(caughtUp.coins == whole.coins && caughtUp.weeks == whole.weeks && caughtUp.rules == whole.rules)
    }
}
