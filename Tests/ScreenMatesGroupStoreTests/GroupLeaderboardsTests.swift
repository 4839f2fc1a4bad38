import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesTestSupport
import Testing

/// The group's leaderboards for today, this week and this month, made from a fetched snapshot
/// and the user's own live figures.
@Suite struct GroupLeaderboardsTests {
    // Wednesday 18 November 2026: the week began on Monday the 16th, the month on the 1st.
    let today = LocalDate(year: 2026, month: 11, day: 18)!
    let now = Date(timeIntervalSince1970: 1_795_500_000)

    func profile(_ id: String, blocks: Int, day: LocalDate, streak: Int = 0) -> MemberProfile {
        MemberProfile(
            userID: UserID(id), displayName: try! DisplayName(validating: id), blocksToday: blocks, day: day,
            streak: streak,
            lastActive: now, lastUpdated: now, version: 1)
    }

    func snapshot(
        _ members: [MemberProfile], day: LocalDate? = nil, week: [String: Int] = [:], month: [String: Int] = [:]
    ) -> GroupSnapshot {
        GroupSnapshot(
            group: Group(
                code: try! GroupCode(validating: "K7Q2XM"), dailyGoalBlocks: 8, memberCount: members.count + 1,
                createdAt: now),
            members: members, day: day ?? today, weekBlocks: byID(week), monthBlocks: byID(month), fetchedAt: now)
    }

    func byID(_ sums: [String: Int]) -> [UserID: Int] {
        Dictionary(uniqueKeysWithValues: sums.map { (UserID($0.key), $0.value) })
    }

    var me: LeaderboardMember {
        LeaderboardMember(id: UserID("me"), name: "me", blocks: 2, streak: 1, lastActive: now, isMe: true)
    }

    func blocks(_ boards: [LeaderboardPeriod: [LeaderboardEntry]], _ period: LeaderboardPeriod) -> [String: Int?] {
        Dictionary(uniqueKeysWithValues: (boards[period] ?? []).map { ($0.member.id.value, $0.member.blocks) })
    }

    @Test func aMemberWhoseFiguresAreFromAnotherDayIsIdleTodayNotZero() {
        let boards = GroupLeaderboards.make(
            snapshot: snapshot([
                profile("ana", blocks: 5, day: today.adding(days: -1)), profile("bo", blocks: 0, day: today),
            ]),
            today: today, me: me, myHistory: [])
        let expected: [String: Int?] = ["ana": Int?.none, "bo": 0, "me": 2]
        #expect(blocks(boards, .today) == expected)
        let ana = boards[.today]?.first { $0.member.id.value == "ana" }
        #expect(ana?.rank == nil, "idle members are not ranked")
        #expect(boards[.today]?.map(\.member.id.value) == ["bo", "me", "ana"])
    }

    @Test func weekAndMonthAddTheFinishedDaysToToday() {
        let boards = GroupLeaderboards.make(
            snapshot: snapshot(
                [profile("ana", blocks: 3, day: today), profile("bo", blocks: 1, day: today.adding(days: -1))],
                week: ["ana": 10, "bo": 4], month: ["ana": 40, "bo": 9]),
            today: today, me: me,
            myHistory: [
                DayRecord(
                    date: today.adding(days: -1), viceBlocks: 6, productiveBlocks: 0, goalBlocks: 8, earnedSeconds: 0,
                    spentSeconds: 0, endingBalanceSeconds: 0, overdraftSeconds: 0, streakAfter: 1),
                DayRecord(
                    date: today.adding(days: -10), viceBlocks: 7, productiveBlocks: 0, goalBlocks: 8,
                    earnedSeconds: 0, spentSeconds: 0, endingBalanceSeconds: 0, overdraftSeconds: 0, streakAfter: 0),
            ])
        #expect(blocks(boards, .week) == ["ana": 13, "bo": 4, "me": 8])
        #expect(blocks(boards, .month) == ["ana": 43, "bo": 9, "me": 15])
    }

    @Test func sumsFetchedOnAnotherDayAreNotAddedToANewDay() {
        let boards = GroupLeaderboards.make(
            snapshot: snapshot(
                [profile("ana", blocks: 3, day: today)], day: today.adding(days: -1), week: ["ana": 10],
                month: ["ana": 40]),
            today: today, me: me, myHistory: [])
        #expect(blocks(boards, .week)["ana"] == 3)
        #expect(blocks(boards, .month)["ana"] == 3)
    }

    @Test func myRowUsesMyLiveFiguresNotWhatTheStoreHasOfMe() {
        let boards = GroupLeaderboards.make(
            snapshot: snapshot([profile("me", blocks: 9, day: today), profile("ana", blocks: 4, day: today)]),
            today: today, me: me, myHistory: [])
        #expect(boards[.today]?.count == 2)
        #expect(blocks(boards, .today) == ["me": 2, "ana": 4])
        #expect(boards[.today]?.first?.member.isMe == true)
    }
}
