import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore

// A member's account in a shared file: what a restore brings back and what deleting removes.
// A shared file trusts everyone who can write it (the README says so), so it takes the user id
// as given, as every other call does.
extension SQLiteGroupStore {
    public func account(userID: UserID) async throws(GroupStoreError) -> MemberAccount {
        try await read { db in
            let records = try MemberRecord.filter(MemberRecord.Columns.userID == userID)
                .order(MemberRecord.Columns.joinedAt.desc, MemberRecord.Columns.code).fetchAll(db)
            var memberships: [MemberAccount.Membership] = []
            for record in records {
                guard let group = try GroupInfoRecord.group(db, code: try record.groupCode) else { continue }
                memberships.append(
                    MemberAccount.Membership(
                        group: group, profile: try record.profile,
                        joinedAt: SQLiteInstant.date(milliseconds: record.joinedAt)))
            }
            guard let newest = memberships.first else { return .empty }
            let totals = try DayTotalRecord.filter(
                DayTotalRecord.Columns.code == newest.group.code.value && DayTotalRecord.Columns.userID == userID
            )
            .order(DayTotalRecord.Columns.date).fetchAll(db).map { record throws in try record.dayTotal }
            let standing = try Int64.fetchOne(
                db, sql: "SELECT version FROM coin_standing WHERE user_id = ?", arguments: [userID])
            return MemberAccount(memberships: memberships, dayTotals: totals, standingVersion: standing)
        }
    }

    @discardableResult
    public func deleteAccount(userID: UserID) async throws(GroupStoreError) -> Int {
        try await write { db in
            let codes = try String.fetchAll(
                db, sql: "SELECT code FROM member WHERE user_id = ? ORDER BY code", arguments: [userID])
            // Their challenge parts and week results go with the memberships (ON DELETE CASCADE).
            try db.execute(literal: "DELETE FROM day_total WHERE user_id = \(userID)")
            try db.execute(literal: "DELETE FROM member WHERE user_id = \(userID)")
            for code in codes {
                try db.execute(
                    literal: "UPDATE group_info SET change_seq = change_seq + 1 WHERE code = \(code)")
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM member WHERE code = ?", arguments: [code]) == 0 {
                    try db.execute(literal: "DELETE FROM group_challenge WHERE code = \(code)")
                    try db.execute(literal: "DELETE FROM group_info WHERE code = \(code)")
                }
            }
            try db.execute(literal: "DELETE FROM coin_standing WHERE user_id = \(userID)")
            try db.execute(literal: "DELETE FROM last_group WHERE user_id = \(userID)")
            try db.execute(literal: "DELETE FROM failed_attempt WHERE user_id = \(userID)")
            return codes.count
        }
    }
}
