import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesTestSupport
import Testing

/// What every `GroupStore` must do for group challenges, coins and the weekly settlement (the
/// second schema), run against each implementation like the rest of the contract.
///
/// The settlement's checks use weeks of 2021, long closed by any clock a server may hold them to.
extension GroupStoreContract {
    static let games: [Check] = [
        Check("a group challenge is shared, joined once, and closed after its first day") {
            try await groupChallengeIsSharedAndJoinedOnce($0.fresh)
        },
        Check("a participant's decided state stays as first reported") {
            try await decidedStateStaysAsFirstReported($0.fresh)
        },
        Check("leaving the group withdraws the member's part in its challenges") {
            try await leavingWithdrawsParticipation($0.fresh)
        },
        Check("coins are shared by version, ranked in the group, and in public only by those who opt in") {
            try await coinsAreRankedInGroupAndInPublic($0.fresh)
        },
        Check("settlement rules: the standard ones, set by a member, the week start fixed once settled") {
            try await settlementRulesAreSetByMembers($0.fresh)
        },
        Check("a closed week is settled once; missing days wait under pending, late ones settle it") {
            try await pendingWeeksWaitForTheirDays($0.fresh)
        },
        Check("worst-case charges missing days at once, and late days change nothing") {
            try await worstCaseChargesAtOnce($0.fresh)
        },
        Check("a member who joined mid-week is settled from the day they joined") {
            try await aLateJoinerIsSettledFromTheirDay($0.fresh)
        },
        Check("two connections settling at once settle each week once") { try await settlingAtOnceIsOnce($0.shared) },
        Check("a group keeps the day totals of this month and the last, and of weeks still pending") {
            try await oldDayTotalsGoOnceNoReadAsksForThem($0.fresh)
        },
        Check("a group keeps the challenges that ended this month or the last, with their participants") {
            try await oldChallengesGoWithTheirParticipants($0.fresh)
        },
    ]

    // MARK: - Fixtures

    /// A Monday; its week closes when 2021-03-08 begins.
    package static let monday = LocalDate(year: 2021, month: 3, day: 1)!

    /// Noon (UTC) on `date`, plus `seconds`.
    package static func noon(_ date: LocalDate, plus seconds: Int = 0) -> Date {
        Date(timeIntervalSince1970: TimeInterval(date.dayNumber * 86400 + 12 * 3600 + seconds))
    }

    package static func challenge(_ id: String, firstDay: LocalDate = today, days: Int = 3) -> Challenge {
        Challenge(
            id: id, rule: .dailyBlocks(max: 2, target: .allVice), firstDay: firstDay, days: days, reward: 40,
            penalty: 20)
    }

    package static func day(_ userID: UserID, _ date: LocalDate, vice: Int, version: Int64 = 1) -> DayTotal {
        DayTotal(userID: userID, date: date, viceBlocks: vice, goalBlocks: 8, version: version)
    }

    /// A group created at noon on `monday` (its settlement begins that day) with ana and bo.
    package static func settlingGroup(in store: any GroupStore, rules: SettlementRules = .standard) async throws
        -> Group
    {
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: ana, now: noon(monday))
        // Set while ana is the only member: at once.
        try await store.setSettlementRules(rules, code: group.code, userID: ana.userID, now: noon(monday))
        _ = try await store.join(code: group.code, member: bo, now: noon(monday, plus: 60))
        return group
    }

    // MARK: - Group challenges

    static func groupChallengeIsSharedAndJoinedOnce(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        var mark = try await store.changeMark(code: group.code)
        func expectMoved(_ moved: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation)
            async throws
        {
            let now = try await store.changeMark(code: group.code)
            #expect((now > mark) == moved, "\(what)", sourceLocation: sourceLocation)
            mark = now
        }
        var shared = challenge("walk42", days: 5)
        shared.startsAt = at(30)
        try await store.createGroupChallenge(shared, code: group.code, creatorID: ana.userID, now: at(30))
        try await expectMoved(true, "creating a challenge")
        // The same id again, a stranger, an unknown code: refused, nothing changes.
        await expectError(.challengeExists("walk42")) {
            try await store.createGroupChallenge(
                challenge("walk42"), code: group.code, creatorID: bo.userID, now: at(40))
        }
        await expectError(.notAMember(code: group.code)) {
            try await store.createGroupChallenge(
                challenge("other1"), code: group.code, creatorID: UserID("stranger"), now: at(40))
        }
        await expectError(.unknownCode(unusedCode)) {
            try await store.createGroupChallenge(
                challenge("other1"), code: unusedCode, creatorID: ana.userID, now: at(40))
        }
        await expectError(.invalidValue("A challenge lasts 1 to 365 days; 0 is not.")) {
            try await store.createGroupChallenge(
                challenge("other2", days: 0), code: group.code, creatorID: ana.userID, now: at(40))
        }
        try await expectMoved(false, "refusals")
        // Bo joins on the first day, once; joining again changes nothing.
        let joined = try await store.joinGroupChallenge(
            id: "walk42", code: group.code, userID: bo.userID, today: today, now: at(50))
        #expect(joined.challenge == shared && joined.creatorID == ana.userID && joined.createdAt == at(30))
        try await expectMoved(true, "joining")
        _ = try await store.joinGroupChallenge(
            id: "walk42", code: group.code, userID: bo.userID, today: today.adding(days: 3), now: at(60))
        try await expectMoved(false, "joining again")
        await expectError(.unknownChallenge("nope99")) {
            _ = try await store.joinGroupChallenge(
                id: "nope99", code: group.code, userID: bo.userID, today: today, now: at(60))
        }
        // After its first day no one new may join.
        let cy = profile("cy234567", "cy")
        _ = try await store.join(code: group.code, member: cy, now: at(70))
        mark = try await store.changeMark(code: group.code)
        await expectError(.challengeClosed("walk42")) {
            _ = try await store.joinGroupChallenge(
                id: "walk42", code: group.code, userID: cy.userID, today: today.adding(days: 1), now: at(80))
        }
        await expectError(.notAMember(code: group.code)) {
            _ = try await store.joinGroupChallenge(
                id: "walk42", code: group.code, userID: UserID("stranger"), today: today, now: at(80))
        }
        try await expectMoved(false, "refused joins")
        // A second challenge: the newest comes first, each with its participants as they joined.
        try await store.createGroupChallenge(
            challenge("read77", days: 1), code: group.code, creatorID: cy.userID, now: at(90))
        let boards = try await store.groupChallenges(code: group.code)
        #expect(boards.map(\.challenge.id) == ["read77", "walk42"])
        #expect(boards.last?.participants.map(\.name) == ["ana", "bo"])
        #expect(
            boards.last?.participants.first
                == ParticipantStanding(
                    userID: ana.userID, name: "ana", state: .stillIn, daysKept: 0, joinedAt: at(30), decidedAt: nil))
        #expect(boards.first?.participants.map(\.userID) == [cy.userID])
        await expectError(.unknownCode(unusedCode)) { _ = try await store.groupChallenges(code: unusedCode) }
    }

    /// A property: whatever reports a participant's home sends, in any order and repeated, the
    /// group keeps what `ParticipantStanding.taking` makes of them, and says when it changed.
    static func decidedStateStaysAsFirstReported(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        let reports = Generator<[ParticipantReport], Shrink.None<[ParticipantReport]>> { rng in
            (0..<Int.random(in: 1...8, using: &rng)).map { index in
                let state = ParticipantState.allCases[Int.random(in: 0...5, using: &rng) % 4]
                return ParticipantReport(
                    challengeID: "", userID: bo.userID, state: state, daysKept: Int.random(in: 0...7, using: &rng),
                    decidedAt: state.isDecided ? at(100 + index) : nil)
            }
        }
        await propertyCheck(count: 100, input: reports) { reports in
            let id = "p" + UUID().uuidString.prefix(8).lowercased()
            try await store.createGroupChallenge(
                challenge(id, days: 7), code: group.code, creatorID: ana.userID, now: at(1))
            _ = try await store.joinGroupChallenge(
                id: id, code: group.code, userID: bo.userID, today: today, now: at(1))
            var expected = ParticipantStanding(
                userID: bo.userID, name: "bo", state: .stillIn, daysKept: 0, joinedAt: at(1))
            for var report in reports {
                report.challengeID = id
                let mark = try await store.changeMark(code: group.code)
                let changed = try await store.reportParticipant(report, code: group.code)
                let next = expected.taking(
                    state: report.state, daysKept: report.daysKept, decidedAt: report.decidedAt)
                #expect(changed == (next != nil))
                #expect((try await store.changeMark(code: group.code) > mark) == changed)
                if let next { expected = next }
            }
            let board = try await store.groupChallenges(code: group.code).first { $0.challenge.id == id }
            #expect(board?.participants.last == expected)
        }
        try await store.createGroupChallenge(challenge("last01"), code: group.code, creatorID: ana.userID, now: at(2))
        await expectError(.notAMember(code: group.code)) {
            try await store.reportParticipant(
                ParticipantReport(
                    challengeID: "last01", userID: UserID("cy234567"), state: .failed, daysKept: 0, decidedAt: nil),
                code: group.code)
        }
        await expectError(.unknownChallenge("none00")) {
            try await store.reportParticipant(
                ParticipantReport(
                    challengeID: "none00", userID: bo.userID, state: .failed, daysKept: 0, decidedAt: nil),
                code: group.code)
        }
    }

    static func leavingWithdrawsParticipation(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        try await store.createGroupChallenge(challenge("walk42"), code: group.code, creatorID: bo.userID, now: at(1))
        _ = try await store.joinGroupChallenge(
            id: "walk42", code: group.code, userID: ana.userID, today: today, now: at(2))
        try await store.reportParticipant(
            ParticipantReport(challengeID: "walk42", userID: bo.userID, state: .failed, daysKept: 1, decidedAt: at(3)),
            code: group.code)
        try await store.leave(code: group.code, userID: bo.userID)
        let board = try #require(try await store.groupChallenges(code: group.code).first)
        #expect(board.participants.map(\.userID) == [ana.userID])
        #expect(board.challenge.creatorID == bo.userID, "the challenge stays with the group")
    }

    // MARK: - Coins

    static func coinsAreRankedInGroupAndInPublic(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        let cy = profile("cy234567", "cy")
        let other = try await store.createGroup(dailyGoalBlocks: 8, creator: cy, now: start)
        func standing(_ profile: MemberProfile, coins: Int, badges: Int, public: Bool, version: Int64)
            -> StandingReport
        {
            StandingReport(
                userID: profile.userID, displayName: profile.displayName, coins: coins, badges: badges,
                isPublic: `public`, version: version, updatedAt: at(Int(version)))
        }
        let mark = try await store.changeMark(code: group.code)
        #expect(try await store.reportStanding(standing(ana, coins: 120, badges: 3, public: true, version: 2)))
        #expect(try await store.changeMark(code: group.code) > mark)
        #expect(try await store.reportStanding(standing(bo, coins: 300, badges: 1, public: false, version: 1)))
        #expect(try await store.reportStanding(standing(cy, coins: 120, badges: 5, public: true, version: 1)))
        // An older or equal version changes nothing.
        #expect(try await !store.reportStanding(standing(ana, coins: 999, badges: 9, public: true, version: 2)))
        await expectError(.invalidValue("User stranger has not joined a group in this group store; join one first.")) {
            try await store.reportStanding(
                standing(profile("stranger", "stranger"), coins: 1, badges: 0, public: true, version: 1))
        }
        // The group sees its own members' coins, public or not; not the other group's.
        let coins = try await store.memberCoins(code: group.code)
        #expect(
            coins == [
                MemberCoins(userID: ana.userID, coins: 120, badges: 3, updatedAt: at(2)),
                MemberCoins(userID: bo.userID, coins: 300, badges: 1, updatedAt: at(1)),
            ])
        #expect(try await store.memberCoins(code: other.code).map(\.userID) == [cy.userID])
        // The public ranking: only those who opted in, by coins then badges, no ids; where the
        // asker stands.
        let ranking = try await store.publicRanking(userID: ana.userID, limit: 10)
        #expect(
            ranking.standings == [
                CoinStanding(userID: nil, name: "cy", coins: 120, badges: 5, isMe: false),
                CoinStanding(userID: nil, name: "ana", coins: 120, badges: 3, isMe: true),
            ])
        #expect(ranking.total == 2 && ranking.myRank == 2)
        let top = try await store.publicRanking(userID: bo.userID, limit: 1)
        #expect(top.standings.map(\.name) == ["cy"] && top.total == 2 && top.myRank == nil)
        // Opting out takes one out of it.
        #expect(try await store.reportStanding(standing(cy, coins: 130, badges: 5, public: false, version: 2)))
        #expect(try await store.publicRanking(userID: ana.userID, limit: 10).standings.map(\.name) == ["ana"])
    }
}
