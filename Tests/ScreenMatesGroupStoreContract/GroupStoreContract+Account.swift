import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesTestSupport
import Testing

/// A member's account: what a restore on a new machine gets back, and what deleting removes.
extension GroupStoreContract {
    static let account: [Check] = [
        Check("an account holds the member's groups, profile and own day totals") {
            try await accountHoldsWhatTheMemberShared($0.fresh)
        },
        Check("deleting an account removes every row of the member's, and a group left empty") {
            try await deletingAnAccountRemovesEverything($0.fresh)
        },
    ]

    static func accountHoldsWhatTheMemberShared(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        #expect(try await store.account(userID: bo.userID) == .empty)
        let group = try await newGroup(in: store)
        var joined = bo
        joined.version = 7
        joined.streak = 12
        _ = try await store.join(code: group.code, member: joined, now: at(60))
        try await store.upsertDayTotals(
            [
                DayTotal(userID: bo.userID, date: today.adding(days: -2), viceBlocks: 9, goalBlocks: 8, version: 3),
                DayTotal(userID: bo.userID, date: today.adding(days: -1), viceBlocks: 2, goalBlocks: 8, version: 3),
                DayTotal(userID: ana.userID, date: today.adding(days: -1), viceBlocks: 5, goalBlocks: 8, version: 1),
            ], code: group.code)
        let account = try await store.account(userID: bo.userID)
        #expect(account.memberships.map(\.group.code) == [group.code])
        #expect(account.memberships.first?.group.memberCount == 2)
        #expect(account.memberships.first?.profile == joined)
        // Only bo's own days, oldest first.
        #expect(account.dayTotals.map(\.date) == [today.adding(days: -2), today.adding(days: -1)])
        #expect(account.dayTotals.map(\.viceBlocks) == [9, 2])
        #expect(account.dayTotals.allSatisfy { $0.userID == bo.userID })
    }

    static func deletingAnAccountRemovesEverything(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let shared = try await newGroup(in: store)
        _ = try await store.join(code: shared.code, member: bo, now: start)
        try await store.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: today.adding(days: -1), viceBlocks: 3, goalBlocks: 8, version: 1)],
            code: shared.code)
        try await store.createGroupChallenge(
            Challenge(
                id: "gone01", rule: .dailyBlocks(max: 2, target: .allVice), firstDay: today, days: 3, reward: 5,
                penalty: 5), code: shared.code, creatorID: ana.userID, now: start)
        _ = try await store.joinGroupChallenge(
            id: "gone01", code: shared.code, userID: bo.userID, today: today, now: start)
        try await store.reportStanding(
            StandingReport(
                userID: bo.userID, displayName: bo.displayName, coins: 40, badges: 1, isPublic: true, version: 1,
                updatedAt: start))
        let markBefore = try await store.changeMark(code: shared.code)
        #expect(try await store.deleteAccount(userID: bo.userID) == 1)
        // Gone from the group, its challenge, its coins and the public ranking; ana stays.
        #expect(try await store.members(code: shared.code) == [ana])
        #expect(try await store.changeMark(code: shared.code) > markBefore)
        #expect(try await store.dayTotals(code: shared.code, days: today.adding(days: -7)...today).isEmpty)
        let board = try await store.groupChallenges(code: shared.code).first
        #expect(board?.participants.map(\.userID) == [ana.userID])
        #expect(try await store.memberCoins(code: shared.code).allSatisfy { $0.userID != bo.userID })
        #expect(try await store.publicRanking(userID: ana.userID, limit: 10).standings.allSatisfy { $0.name != "bo" })
        #expect(try await store.account(userID: bo.userID) == .empty)
        // The last member deleting their account takes the group along.
        #expect(try await store.deleteAccount(userID: ana.userID) == 1)
        #expect(try await store.group(code: shared.code, userID: bo.userID, now: start) == nil)
    }
}
