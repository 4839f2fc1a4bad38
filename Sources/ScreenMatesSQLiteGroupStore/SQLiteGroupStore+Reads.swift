import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// The group's members and day totals, read the way every row of the shared file is: each row
// checked on the way in (`StoredGroupRow`), a bad one left out and reported, the rest returned.
extension SQLiteGroupStore {
    /// The members whose row changed after `changedAfter` (all of them when nil), in the order
    /// they joined.
    public func members(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [MemberProfile] {
        try await read { db, filter in
            try Self.requireGroup(db, code: code)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, display_name, blocks_today, day, streak, last_active, last_updated, version
                    FROM member WHERE code = ? AND seq > ? ORDER BY joined_at, user_id
                    """, arguments: [code.value, changedAfter ?? -1]
            ).compactMap { row in filter.keep(row, .member, decode: StoredMember.init(row:)) }
        }
    }

    /// Ordered by date, then user id.
    public func dayTotals(code: GroupCode, days: ClosedRange<LocalDate>) async throws(GroupStoreError) -> [DayTotal] {
        let first = GroupStoreRules.clampedDayNumber(days.lowerBound)
        let last = GroupStoreRules.clampedDayNumber(days.upperBound)
        return try await read { db, filter in
            try Self.requireGroup(db, code: code)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, date, vice_blocks, goal_blocks, version FROM day_total
                    WHERE code = ? AND date BETWEEN ? AND ? ORDER BY date, user_id
                    """, arguments: [code.value, first, last]
            ).compactMap { row in filter.keep(row, .dayTotal, decode: StoredDayTotal.init(row:)) }
        }
    }

    /// Added up where the rows are, over the rows that are plainly right (whole numbers within
    /// their bounds: `plainlyRight`); the few others are read one by one and checked like any
    /// row, so each is either added or left out and named. The sum is SQLite's `total()`, which
    /// never raises on overflow, held within `Int`. With `changedAfter`, only the members with a
    /// total in the days changed after it are added up.
    public func blockSums(code: GroupCode, days: ClosedRange<LocalDate>, changedAfter: Int64?)
        async throws(GroupStoreError) -> [UserID: Int]
    {
        let first = GroupStoreRules.clampedDayNumber(days.lowerBound)
        let last = GroupStoreRules.clampedDayNumber(days.upperBound)
        let bounds: StatementArguments = [
            GroupStoreRules.blocksPerDayRange.upperBound, GroupStoreRules.dayGoalRange.upperBound,
        ]
        return try await read { db, filter in
            try Self.requireGroup(db, code: code)
            var sums: [UserID: Int] = [:]
            // Every member's rows, or those of the members with a total changed after the mark.
            var range: StatementArguments = [code.value, first, last]
            var changed = "1"
            if let changedAfter {
                range += [code.value, first, last, changedAfter]
                changed = Self.changedMember
            }
            var unnamed: [String] = []
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, total(vice_blocks) AS blocks FROM day_total
                    WHERE code = ? AND date BETWEEN ? AND ? AND \(changed) AND \(Self.plainlyRight)
                    GROUP BY user_id
                    """, arguments: range + bounds)
            {
                let text: String = try row.checked("user_id", in: "day_total")
                guard let userID = try? UserID(validating: text) else {
                    unnamed.append(text)
                    continue
                }
                let blocks: Double = try row.checked("blocks", in: "day_total")
                sums[userID] = Int(exactly: blocks.rounded()) ?? (blocks > 0 ? Int.max : 0)
            }
            // The few others, one by one: each added, or left out and named as `dayTotals` names it.
            var rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, date, vice_blocks, goal_blocks, version FROM day_total
                    WHERE code = ? AND date BETWEEN ? AND ? AND \(changed) AND NOT \(Self.plainlyRight)
                    """, arguments: range + bounds)
            for text in unnamed {
                rows += try Row.fetchAll(
                    db,
                    sql: """
                        SELECT user_id, date, vice_blocks, goal_blocks, version FROM day_total
                        WHERE code = ? AND date BETWEEN ? AND ? AND \(changed) AND user_id = ?
                            AND \(Self.plainlyRight)
                        """, arguments: range + [text] + bounds)
            }
            for row in rows {
                guard let total = filter.keep(row, .dayTotal, decode: StoredDayTotal.init(row:)) else { continue }
                sums[total.userID] = (sums[total.userID] ?? 0).saturatingAdding(total.viceBlocks)
            }
            return sums
        }
    }

    /// The members with a total in the days (code, first, last) changed after a change number.
    private static let changedMember = """
        user_id IN (SELECT user_id FROM day_total WHERE code = ? AND date BETWEEN ? AND ? AND seq > ?)
        """

    /// A day total SQLite can add up as it is: whole numbers, blocks and goal within their
    /// bounds (the two arguments). Never NULL, so `NOT` selects exactly the other rows.
    private static let plainlyRight = """
        (typeof(user_id) = 'text' AND typeof(date) = 'integer' AND typeof(version) = 'integer'
            AND typeof(vice_blocks) = 'integer' AND vice_blocks BETWEEN 0 AND ?
            AND typeof(goal_blocks) = 'integer' AND goal_blocks BETWEEN 0 AND ?)
        """
}
