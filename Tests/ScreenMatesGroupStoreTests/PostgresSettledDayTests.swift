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
        _ group: HostileGroup, _ body: () async throws -> T
    ) async throws -> T {
        try await PostgresTestServer.withConnection(to: group.owner) { connection in
            let logger = Logger(label: "tests")
            _ = try await connection.query("BEGIN", logger: logger).collect()
            _ = try await connection.query(
                "SELECT 1 FROM screenmates.group_info WHERE code = \(group.code.value) FOR UPDATE", logger: logger
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

    @Test func aDaySettledIsAnsweredWithoutTheLockUntilADayTotalCounts() async throws {
        let group = try await HostileGroup.make()
        let (ana, bo, code, today) = (group.ana, group.bo, group.code, group.today)
        try await ana.store.settleWeeks(code: code, today: today, now: group.now)

        // Settled for today, nothing written since: bo's settlement goes through while the row is held.
        let again = try await whileTheGroupIsHeld(group) {
            try await bo.store.settleWeeks(code: code, today: today, now: group.now)
        }
        #expect(again == 0)
        // So does one for an earlier day.
        _ = try await whileTheGroupIsHeld(group) {
            try await bo.store.settleWeeks(code: code, today: today.adding(days: -1), now: group.now)
        }

        // A finished day of bo's counts: the next settlement settles, and waits for the row.
        try await bo.store.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: today.adding(days: -1), viceBlocks: 1, goalBlocks: 8, version: 3)],
            code: code)
        #expect(
            try await waitsForTheRow(group) {
                try await ana.store.settleWeeks(code: code, today: today, now: group.now)
            })
        try await ana.store.settleWeeks(code: code, today: today, now: group.now)
        _ = try await whileTheGroupIsHeld(group) {
            try await bo.store.settleWeeks(code: code, today: today, now: group.now)
        }

        // So do new rules.
        try await ana.store.setSettlementRules(
            SettlementRules(weekStart: 1, keptDayCoins: 6, overDayCoins: 10, missingDays: .pending), code: code,
            userID: ana.userID)
        #expect(
            try await waitsForTheRow(group) { try await bo.store.settleWeeks(code: code, today: today, now: group.now) }
        )
        try await bo.store.settleWeeks(code: code, today: today, now: group.now)
        _ = try await whileTheGroupIsHeld(group) {
            try await ana.store.settleWeeks(code: code, today: today, now: group.now)
        }
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

    /// Whether `settle` gave up as busy while the group's row was held (it waited for the lock).
    private func waitsForTheRow(_ group: HostileGroup, _ settle: () async throws -> Int) async throws -> Bool {
        try await whileTheGroupIsHeld(group) { () async throws -> Bool in
            do {
                _ = try await settle()
                return false
            } catch let error as GroupStoreError {
                return isBusy(error)
            }
        }
    }
}
