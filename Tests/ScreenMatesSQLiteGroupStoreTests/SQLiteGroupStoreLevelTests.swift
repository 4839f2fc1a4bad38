import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesSQLiteGroupStore

/// The shared file's schema levels: what came after GRDB's first migration is recorded with the
/// oldest version that may still use the file, so the first version keeps using an upgraded
/// file, a newer compatible file is used, and only an incompatible one is refused.
@Suite struct SQLiteGroupStoreLevelTests {
    private typealias Contract = GroupStoreContract

    @Test func aFirstVersionFileIsUpgradedAndTheFirstVersionStillSeesItsOwn() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        // The file as the first version left it: GRDB's first migration only, and a group.
        do {
            let pool = try DatabasePool(path: path)
            try SQLiteGroupSchema.makeMigrator().migrate(pool)
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO group_info (code, daily_goal_blocks, created_at, change_seq) VALUES (?, 8, 0, 1)",
                    arguments: ["K7Q2XM"])
            }
        }
        let store = try await SQLiteGroupStore.open(at: path)
        let code = try GroupCode(validating: "K7Q2XM")
        #expect(try await store.settlementRules(code: code) == SettlementSchedule(rules: .standard))
        let queue = try DatabaseQueue(path: path)
        try await queue.read { db in
            // What the first version checks: no GRDB migration it does not know.
            #expect(try !SQLiteGroupSchema.makeMigrator().hasBeenSuperseded(db))
            #expect(try SQLiteGroupLevels.installed(db) == .init(version: 6, compatibleFrom: 6))
            // The group from before the settlement begins settling on the day it came.
            let settleFrom = try Int.fetchOne(db, sql: "SELECT settle_from FROM group_info")
            #expect((settleFrom ?? 0) > LocalDate(year: 2026, month: 1, day: 1)!.dayNumber)
        }
    }

    @Test func aNewerLevelIsUsedWhenCompatibleAndRefusedWhenNot() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let group = try await Contract.newGroup(in: try await SQLiteGroupStore.open(at: path))
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO schema_level VALUES (7, 6, 'later, compatible')")
            // What such a level may add: an index this version does not know.
            try db.execute(sql: "CREATE INDEX member_by_day ON member(code, day)")
        }
        #expect(try await SQLiteGroupStore.open(at: path).members(code: group.code) == [Contract.ana])
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO schema_level VALUES (8, 8, 'later, not compatible')")
        }
        await #expect {
            try await SQLiteGroupStore.open(at: path)
        } throws: { error in
            guard case .unusable(let location, let detail) = error as? GroupStoreError else { return false }
            return location == path && detail.contains("newer version")
        }
    }
}
