import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// A group settled for a day is not settled again that day until something that counts changed
/// (the tenth schema): the next settlement answers without the group's lock, so it goes through
/// while someone holds the group's row; a day total written since makes it settle again, and wait
/// for the lock as it always did.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresSettledDayTests {
    /// Runs `body` while another connection holds the group's row (as an open transaction would).
    private func whileTheGroupIsHeld<T: Sendable>(
        _ group: HostileGroup, code: GroupCode, _ body: () async throws -> T
    ) async throws -> T {
        try await PostgresTestServer.withConnection(to: group.owner) { connection in
            let logger = Logger(label: "tests")
            _ = try await connection.query("BEGIN", logger: logger).collect()
            _ = try await connection.query(
                "SELECT 1 FROM screenmates.group_info WHERE code = \(code.value) FOR UPDATE", logger: logger
            ).collect()
            let result = try await body()
            _ = try await connection.query("COMMIT", logger: logger).collect()
            return result
        }
    }

    private func isBusy(_ error: GroupStoreError) -> Bool {
        if case .busy = error { return true }
        return false
    }

    /// A group of ana's that bo joins, whose weeks start today, whatever day it is: yesterday is
    /// then in a closed week (and within the two days before joining that a strict store takes).
    private func groupWhoseWeeksStartToday(_ group: HostileGroup) async throws -> GroupCode {
        let (ana, bo) = (group.ana, group.bo)
        let code = try await ana.store.createGroup(dailyGoalBlocks: 8, creator: ana.profile, now: group.now).code
        _ = try await bo.store.join(code: code, member: bo.profile, now: group.now)
        try await ana.store.setSettlementRules(
            SettlementRules(
                weekStart: group.today.isoWeekday, keptDayCoins: 5, overDayCoins: 10, missingDays: .pending),
            code: code, userID: ana.userID, now: group.now)
        return code
    }

    @Test func aDaySettledIsAnsweredWithoutTheLockUntilADayTotalCounts() async throws {
        let group = try await HostileGroup.make()
        let (ana, bo, today) = (group.ana, group.bo, group.today)
        let code = try await groupWhoseWeeksStartToday(group)
        try await ana.store.settleWeeks(code: code, today: today, now: group.now)

        // Settled for today, nothing written since: bo's settlement goes through while the row is held.
        let again = try await whileTheGroupIsHeld(group, code: code) {
            try await bo.store.settleWeeks(code: code, today: today, now: group.now)
        }
        #expect(again == 0)
        // So does one for an earlier day.
        _ = try await whileTheGroupIsHeld(group, code: code) {
            try await bo.store.settleWeeks(code: code, today: today.adding(days: -1), now: group.now)
        }

        // A finished day of bo's in a closed week counts: the next settlement settles, and waits
        // for the row.
        try await bo.store.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: today.adding(days: -1), viceBlocks: 1, goalBlocks: 8, version: 3)],
            code: code)
        #expect(try await nextSettlementWaits(by: ana, group, code: code))
        try await ana.store.settleWeeks(code: code, today: today, now: group.now)
        _ = try await whileTheGroupIsHeld(group, code: code) {
            try await bo.store.settleWeeks(code: code, today: today, now: group.now)
        }

        // New rates wait for the weeks that have not begun: no closed week counts differently,
        // and the settlement is answered at once.
        try await ana.store.setSettlementRules(
            SettlementRules(
                weekStart: group.today.isoWeekday, keptDayCoins: 6, overDayCoins: 10, missingDays: .pending),
            code: code, userID: ana.userID, now: group.now)
        _ = try await whileTheGroupIsHeld(group, code: code) {
            try await bo.store.settleWeeks(code: code, today: today, now: group.now)
        }
    }

    /// A day total in the week still open — the one holding the day settled for, which no
    /// settlement for that day counts — leaves the settled day as it is (the twelfth schema);
    /// one a day earlier than that week's first day does not.
    @Test func aDayOfTheOpenWeekCallsForNoSettlement() async throws {
        let group = try await HostileGroup.make()
        let (ana, bo, today) = (group.ana, group.bo, group.today)
        let code = try await groupWhoseWeeksStartToday(group)
        try await ana.store.settleWeeks(code: code, today: today, now: group.now)

        // Today is the open week's first day: a total of today's, and one of tomorrow's (today
        // somewhere on Earth), call for no settlement.
        try await bo.store.upsertDayTotals(
            [
                DayTotal(userID: bo.userID, date: today, viceBlocks: 3, goalBlocks: 8, version: 3),
                DayTotal(userID: bo.userID, date: today.adding(days: 1), viceBlocks: 4, goalBlocks: 8, version: 3),
            ], code: code)
        #expect(try await !nextSettlementWaits(by: bo, group, code: code))

        // Yesterday is in a closed week.
        try await ana.store.upsertDayTotals(
            [DayTotal(userID: ana.userID, date: today.adding(days: -1), viceBlocks: 9, goalBlocks: 8, version: 3)],
            code: code)
        #expect(try await nextSettlementWaits(by: bo, group, code: code))
    }

    /// Someone not in the group is refused as before, settled day or not.
    @Test func aSettledDayAnswersNoOneOutsideTheGroup() async throws {
        let group = try await HostileGroup.make()
        try await group.ana.store.settleWeeks(code: group.code, today: group.today, now: group.now)
        await #expect(throws: GroupStoreError.notAMember(code: group.code)) {
            try await group.mal.store.settleWeeks(code: group.code, today: group.today, now: group.now)
        }
        let madeUp = PostgresTestServer.secret(for: group.ana.userID, salt: "made-up")
        let asAna =
            "SELECT * FROM screenmates.settle_weeks('\(group.ana.id)', '\(madeUp.hex)', '\(group.code.value)', "
            + "\(group.day(0)), \(group.nowMilliseconds))"
        #expect(try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: asAna), as: group.eve.login) == "SMWHO")
    }

    /// Whether `member`'s settlement for today waits for the group's row (it settles) rather than
    /// answering at once.
    private func nextSettlementWaits(
        by member: HostileGroup.Member, _ group: HostileGroup, code: GroupCode
    ) async throws -> Bool {
        try await waitsForTheRow(group, code: code) {
            try await member.store.settleWeeks(code: code, today: group.today, now: group.now)
        }
    }

    /// Whether `settle` gave up as busy while the group's row was held (it waited for the lock).
    private func waitsForTheRow(
        _ group: HostileGroup, code: GroupCode, _ settle: () async throws -> Int
    ) async throws -> Bool {
        try await whileTheGroupIsHeld(group, code: code) { () async throws -> Bool in
            do {
                _ = try await settle()
                return false
            } catch let error as GroupStoreError {
                return isBusy(error)
            }
        }
    }
}
