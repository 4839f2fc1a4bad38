import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

/// A group's day totals on a server: each member's own, sent in batches, and the group's, read
/// whole for a span of days or summed per member.
extension PostgresGroupStore {
    /// Each member's totals go in a call of their own, proved by their secret: the server takes a
    /// member's own totals only. Totals of a member who is not in the group are ignored.
    public func upsertDayTotals(_ totals: [DayTotal], code: GroupCode, machine: MachineID?)
        async throws(GroupStoreError)
    {
        for total in totals { try GroupStoreRules.check(total) }
        var byMember: [UserID: [DayTotal]] = [:]
        for total in totals { byMember[total.userID, default: []].append(total) }
        for (userID, own) in byMember.sorted(by: { $0.key < $1.key }) {
            let me = try caller(userID)
            let dates = own.map { Int64($0.date.dayNumber) }
            let vice = own.map { Int64($0.viceBlocks) }
            let goals = own.map { Int64($0.goalBlocks) }
            let versions = own.map(\.version)
            // The productive blocks go when every total says them (a client says them for all its days or
            // none); NULL keeps them unsaid.
            let said = own.compactMap { $0.productiveBlocks.map(Int64.init) }
            let productive: [Int64]? = said.count == own.count ? said : nil
            let rows: [PostgresRow]
            do {
                rows = try await perform(OperationContext(code: code, userID: userID)) { client in
                    try await client.writeRows(
                        """
                        SELECT screenmates.upsert_machine_days(\(me.id), \(me.secret), \(Self.id(machine)),
                            \(code.value), \(dates), \(vice), \(goals), \(versions), \(productive))
                        """
                    )
                }
            } catch .notAMember {
                continue
            }
            guard try known(rows, "storing day totals") else { throw .unknownCode(code) }
        }
    }

    public func dayTotals(code: GroupCode, days: ClosedRange<LocalDate>) async throws(GroupStoreError) -> [DayTotal] {
        let first = Int64(GroupStoreRules.clampedDayNumber(days.lowerBound))
        let last = Int64(GroupStoreRules.clampedDayNumber(days.upperBound))
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, user_id, date, vice_blocks, goal_blocks, version
                FROM screenmates.group_day_totals(\(me.id), \(me.secret), \(code.value), \(first), \(last))
                """
            )
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        var filter = GroupRowFilter()
        let totals = try decode("the day totals") {
            try rows.compactMap { row in
                let (_, userID, date, vice, goal, version) = try row.decode(
                    (Bool, String, Int64, Int64, Int64, Int64).self)
                return filter.keep(
                    StoredDayTotal(userID: userID, date: date, viceBlocks: vice, goalBlocks: goal, version: version))
            }
        }
        filter.report()
        return totals
    }

    /// Added up on the server from the rows every client accepts, so a fetch moves one row per
    /// member; a row no client accepts comes back as it is, to be left out and named.
    public func blockSums(code: GroupCode, days: ClosedRange<LocalDate>, changedAfter: Int64?)
        async throws(GroupStoreError) -> [UserID: Int]
    {
        let first = Int64(GroupStoreRules.clampedDayNumber(days.lowerBound))
        let last = Int64(GroupStoreRules.clampedDayNumber(days.upperBound))
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, user_id, blocks, date, vice_blocks, goal_blocks, version
                FROM screenmates.group_block_sums_after(\(me.id), \(me.secret), \(code.value), \(first), \(last),
                    \(changedAfter))
                """
            )
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        var filter = GroupRowFilter()
        let sums = try decode("the members' block sums") {
            var sums: [UserID: Int] = [:]
            for row in rows {
                let (_, user, blocks, date, vice, goal, version) = try row.decode(
                    (Bool, String, Int64?, Int64?, Int64?, Int64?, Int64?).self)
                if let blocks, let id = try? UserID(validating: user) {
                    sums[id] = Int(clamping: max(0, blocks))
                } else {
                    _ = filter.keep(
                        StoredDayTotal(
                            userID: user, date: date ?? .min, viceBlocks: vice ?? .min, goalBlocks: goal ?? .min,
                            version: version ?? 0))
                }
            }
            return sums
        }
        filter.report()
        return sums
    }
}
