import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore

// A member's account in a shared file: what a restore brings back and what deleting removes.
// A shared file trusts everyone who can write it (the README says so), so it takes the user id
// as given, as every other call does.
extension SQLiteGroupStore {
    public func account(userID: UserID) async throws(GroupStoreError) -> MemberAccount {
        try await read { db, filter in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT code, user_id, display_name, blocks_today, day, streak, last_active, last_updated, version,
                        joined_at
                    FROM member WHERE user_id = ? ORDER BY joined_at DESC, code
                    """, arguments: [userID])
            var memberships: [MemberAccount.Membership] = []
            for row in rows {
                guard let text: String = try? row.checked("code", in: "member"),
                    let code = try? GroupCode(validating: text),
                    let group = try? GroupInfoRecord.group(db, code: code),
                    let profile = filter.keep(row, .member, key: userID.value, decode: StoredMember.init(row:)),
                    let joined: Int64 = try? row.checked("joined_at", in: "member")
                else { continue }
                memberships.append(
                    MemberAccount.Membership(
                        group: group, profile: profile, joinedAt: StoredInstant.date(milliseconds: joined)))
            }
            guard let newest = memberships.first else { return .empty }
            let totals = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, date, vice_blocks, goal_blocks, version FROM day_total
                    WHERE code = ? AND user_id = ? ORDER BY date
                    """, arguments: [newest.group.code.value, userID]
            ).compactMap { row in filter.keep(row, .dayTotal, decode: StoredDayTotal.init(row:)) }
            let standing: Int64? = try? Int64.fetchOne(
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
            try db.execute(literal: "DELETE FROM machine_day_total WHERE user_id = \(userID)")
            try db.execute(literal: "DELETE FROM member WHERE user_id = \(userID)")
            for code in codes {
                try db.execute(
                    literal: "UPDATE group_info SET change_seq = change_seq + 1 WHERE code = \(code)")
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM member WHERE code = ?", arguments: [code]) == 0 {
                    try db.execute(literal: "DELETE FROM group_challenge WHERE code = \(code)")
                    try db.execute(literal: "DELETE FROM group_info WHERE code = \(code)")
                }
            }
            try db.execute(literal: "DELETE FROM open_participant WHERE user_id = \(userID)")
            if db.changesCount > 0 { try Self.bumpOpen(db) }
            try db.execute(literal: "DELETE FROM machine WHERE user_id = \(userID)")
            try db.execute(literal: "DELETE FROM coin_standing WHERE user_id = \(userID)")
            try db.execute(literal: "DELETE FROM last_group WHERE user_id = \(userID)")
            try db.execute(literal: "DELETE FROM failed_attempt WHERE user_id = \(userID)")
            return codes.count
        }
    }
}
