import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The games' own change number (`gamesMarks`, the ninth schema): a mate's block leaves it where
/// it was, every change of what the games show moves it, and only a member learns it.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresGamesMarkTests {
    private func marks(_ group: HostileGroup) async throws -> GroupGamesMarks {
        try #require(try await group.ana.store.gamesMarks(code: group.code))
    }

    @Test func aMatesBlockMovesTheGroupsNumberAndLeavesTheGames() async throws {
        let group = try await HostileGroup.make()
        let before = try await marks(group)
        #expect(before.games <= before.marks.mark)
        let bo = group.bo
        try await bo.store.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: group.today, viceBlocks: 3, goalBlocks: 8, version: 2)],
            code: group.code)
        var profile = bo.profile
        (profile.blocksToday, profile.version) = (3, 2)
        #expect(try await bo.store.upsertProfile(profile))
        let after = try await marks(group)
        #expect(after.marks.mark > before.marks.mark)
        #expect(after.games == before.games)
        #expect(after.gamesUnchanged(since: before.marks.mark))
    }

    /// What changed, as a look reads it, says the games' number too (read after the marks).
    @Test func theChangesSayTheGamesNumber() async throws {
        let group = try await HostileGroup.make()
        let before = try await marks(group)
        try await group.ana.store.createGroupChallenge(
            Challenge(id: "third", rule: .streak, firstDay: group.today, days: 3, reward: 10, penalty: 10),
            code: group.code, creatorID: group.ana.userID, now: group.now)
        let changes = try await group.bo.store.readChanges(
            code: group.code, after: before.marks.mark, weekDays: nil, monthDays: nil)
        let said = try #require(changes.gamesMarks)
        #expect(said == (try await marks(group)))
        #expect(!said.gamesUnchanged(since: before.marks.mark))
    }

    /// A client of an older schema asks `group_changes_after` (the eleventh schema answers it from
    /// `group_changes_and_games_after`): the same rows in the same order, without the games' row.
    @Test func anOlderClientsQuestionGetsTheSameChangesWithoutTheGamesRow() async throws {
        let group = try await HostileGroup.make()
        let before = try await marks(group)
        let bo = group.bo
        try await bo.store.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: group.today.adding(days: -1), viceBlocks: 3, goalBlocks: 8, version: 2)],
            code: group.code)
        var profile = bo.profile
        (profile.blocksToday, profile.version) = (3, 2)
        #expect(try await bo.store.upsertProfile(profile))
        let days = "\(group.day(-6)), \(group.day(0))"
        let arguments = "\(group.ana.proof()), '\(group.code.value)', \(before.marks.mark), \(days), \(days)"
        let rows = { (function: String) in
            try await PostgresTestServer.withConnection(to: group.ana.login) { connection in
                try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT kind, user_id FROM screenmates.\(function)(\(arguments))"),
                    logger: HostileGroup.logger
                ).collect().map { row in
                    let (kind, user) = try row.decode((String, String?).self)
                    return "\(kind) \(user ?? "-")"
                }
            }
        }
        let newer = try await rows("group_changes_and_games_after")
        let older = try await rows("group_changes_after")
        #expect(newer.first == "marks -" && newer.last == "games -", "\(newer)")
        #expect(newer.contains("member \(bo.id)") && newer.contains("week \(bo.id)"), "\(newer)")
        #expect(older == Array(newer.dropLast()))
    }

    @Test func everyChangeOfTheGamesMovesTheirNumber() async throws {
        let group = try await HostileGroup.make()
        let (ana, bo, mal, code, now) = (group.ana, group.bo, group.mal, group.code, group.now)
        var renamed = bo.profile
        (renamed.displayName, renamed.version) = (try DisplayName(validating: "bob"), 5)
        let changes: [(String, () async throws -> Void)] = [
            (
                "a new challenge",
                {
                    try await ana.store.createGroupChallenge(
                        Challenge(
                            id: "second", rule: .streak, firstDay: group.today, days: 3, reward: 10, penalty: 10),
                        code: code, creatorID: ana.userID, now: now)
                }
            ),
            (
                "a participant joins",
                {
                    _ = try await bo.store.joinGroupChallenge(
                        id: "second", code: code, userID: bo.userID, today: group.today, now: now)
                }
            ),
            (
                "a part reported",
                {
                    let report = ParticipantReport(
                        challengeID: "second", userID: bo.userID, state: .failed, daysKept: 0, decidedAt: now)
                    let stored = try await bo.store.reportParticipant(report, code: code)
                    #expect(stored)
                }
            ),
            (
                "coins and badges",
                {
                    try await bo.store.reportStanding(
                        StandingReport(
                            userID: bo.userID, displayName: bo.profile.displayName, coins: 130, badges: 4,
                            isPublic: false, version: 2, updatedAt: now))
                }
            ),
            (
                "the settlement rules",
                {
                    try await ana.store.setSettlementRules(
                        SettlementRules(weekStart: 1, keptDayCoins: 7, overDayCoins: 10, missingDays: .pending),
                        code: code, userID: ana.userID, now: Date())
                }
            ),
            (
                "a new name",
                {
                    let stored = try await bo.store.upsertProfile(renamed)
                    #expect(stored)
                }
            ),
            ("a member joins", { _ = try await mal.store.join(code: code, member: mal.profile, now: now) }),
            ("a member leaves", { try await mal.store.leave(code: code, userID: mal.userID) }),
            (
                // As `settle_weeks` books a week: the result written, the group's number moved.
                "a week result",
                {
                    try await PostgresTestServer.execute(
                        "BEGIN",
                        "UPDATE screenmates.week_result SET coins = coins + 1 WHERE code = '\(code.value)'",
                        "SELECT screenmates.touch('\(code.value)')", "COMMIT", on: group.owner)
                }
            ),
        ]
        for (name, change) in changes {
            let before = try await marks(group)
            try await change()
            let after = try await marks(group)
            #expect(after.marks.mark > before.marks.mark, "\(name): the group's number")
            #expect(!after.gamesUnchanged(since: before.marks.mark), "\(name): the games' number")
            #expect(after.games <= after.marks.mark, "\(name): no number above the group's")
        }
    }

    /// Someone not in the group learns no number of it (refused as not a member); a call in ana's
    /// name without her secret is refused as someone else's.
    @Test func onlyAMemberLearnsTheGamesNumber() async throws {
        let group = try await HostileGroup.make()
        await #expect(throws: GroupStoreError.notAMember(code: group.code)) {
            try await group.mal.store.gamesMarks(code: group.code)
        }
        let own = "SELECT * FROM screenmates.games_marks(\(group.mal.proof()), '\(group.code.value)')"
        #expect(try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: own), as: group.mal.login) == "SMNOT")
        let madeUp = PostgresTestServer.secret(for: group.ana.userID, salt: "made-up")
        let asAna = "SELECT * FROM screenmates.games_marks('\(group.ana.id)', '\(madeUp.hex)', '\(group.code.value)')"
        #expect(try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: asAna), as: group.eve.login) == "SMWHO")
    }
}
