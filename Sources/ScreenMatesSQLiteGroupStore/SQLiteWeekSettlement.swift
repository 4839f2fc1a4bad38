import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

/// The weekly settlement of one group in the shared file, inside the caller's write
/// transaction: a result for every member's closed week that has none, by the rules the week
/// started with (`SettlementSchedule`), and every pending week whose missing days have arrived
/// made final (`WeekSettlement` decides both).
///
/// Every row it reads is checked on the way in; the ones that cannot be right are left out
/// (`leftOut`): a member's row (their weeks wait), a day total (the day counts as missing), a
/// pending result (it stays as it is).
struct SQLiteWeekSettlement {
    let db: Database
    let code: GroupCode
    let schedule: SettlementSchedule
    let settleFrom: LocalDate
    /// Milliseconds: when results made final here were settled.
    let at: Int64
    /// The rows left out so far.
    private var filter = GroupRowFilter()

    init(db: Database, code: GroupCode, schedule: SettlementSchedule, settleFrom: LocalDate, at: Int64) {
        self.db = db
        self.code = code
        self.schedule = schedule
        self.settleFrom = settleFrom
        self.at = at
    }

    var leftOut: [LeftOutRow] { filter.leftOut }

    /// A member's week: one result at most.
    private struct MemberWeek: Hashable {
        let userID: UserID
        /// The week's first day number.
        let week: Int
    }

    /// Rows written, and how many of them became final.
    mutating func run(today: LocalDate) throws -> (written: Int, final: Int) {
        let members = try self.members()
        let from = Dictionary(members, uniquingKeysWith: { first, _ in first })
        let weeks = WeekSettlement.closedWeeks(from: settleFrom, today: today, rules: schedule.rules)
        let pending = try Row.fetchAll(
            db, sql: "SELECT * FROM week_result WHERE code = ? AND status = 'pending'", arguments: [code.value]
        ).compactMap { row in filter.keep(row, .weekResult, decode: StoredWeekResult.init(row:)) }
        var written = 0
        var final = 0
        if let first = weeks.first, let last = weeks.last {
            let days = try totals(first.dayNumber...(last.dayNumber + 6))
            // Any row under a member's week stands for it, even one left out of the results: a
            // second result for the week cannot be written anyway.
            let existing = Set(
                try Row.fetchAll(
                    db, sql: "SELECT user_id, week FROM week_result WHERE code = ? AND week BETWEEN ? AND ?",
                    arguments: [code.value, first.dayNumber, last.dayNumber]
                ).compactMap { row -> MemberWeek? in
                    guard let userID: UserID = row.readable("user_id"), let week: Int = row.readable("week") else {
                        return nil
                    }
                    return MemberWeek(userID: userID, week: week)
                })
            for week in weeks {
                // The rules the week started with.
                let rules = schedule.rules(forWeek: week)
                for (userID, memberFrom) in members
                where !existing.contains(MemberWeek(userID: userID, week: week.dayNumber)) {
                    let outcome = WeekSettlement.settle(
                        week: week, memberFrom: memberFrom, days: days[userID] ?? [:], rule: rules.missingDays,
                        keptDayCoins: rules.keptDayCoins, overDayCoins: rules.overDayCoins)
                    guard outcome != .notTheirs else { continue }
                    try insert(userID: userID, week: week, outcome: outcome, rules: rules)
                    written += 1
                    if case .settled = outcome { final += 1 }
                }
            }
        }
        for result in pending {
            guard let memberFrom = from[result.userID] else { continue }
            let days = try totals(result.week.dayNumber...(result.week.dayNumber + 6), userID: result.userID)
            guard let (kept, over) = try rates(of: result) else { continue }
            // The rule in force when the week closed was `pending`: it waits until nothing is missing.
            let outcome = WeekSettlement.settle(
                week: result.week, memberFrom: memberFrom, days: days[result.userID] ?? [:], rule: .pending,
                keptDayCoins: kept, overDayCoins: over)
            switch outcome {
            case .settled(let tally, let coins):
                try update(result, tally: tally, status: .settled, coins: coins, settledAt: at)
                written += 1
                final += 1
            case .pending(let tally) where tally != result.tally:
                try update(result, tally: tally, status: .pending, coins: 0, settledAt: nil)
                written += 1
            case .pending, .notTheirs:
                break
            }
        }
        return (written, final)
    }

    /// The group's members and the first day that counts for each.
    private mutating func members() throws -> [(UserID, LocalDate)] {
        try Row.fetchAll(
            db, sql: "SELECT user_id, joined_at FROM member WHERE code = ?", arguments: [code.value]
        ).compactMap { row -> (UserID, LocalDate)? in
            let text: String = row.readable("user_id") ?? ""
            let joined: Int64? = row.readable("joined_at")
            guard let userID = try? UserID(validating: text) else {
                filter.leaveOut(
                    LeftOutRow(.member, key: text, reason: "user_id \(LeftOutRow.quoted(text)) is not a user id"))
                return nil
            }
            guard let joined, GroupStoreRules.storableMilliseconds.contains(joined) else {
                filter.leaveOut(
                    LeftOutRow(.member, key: text, reason: "joined_at is not an instant of the years a store keeps"))
                return nil
            }
            let day = LocalDate(dayNumber: StoredInstant.dayNumber(ofMilliseconds: joined))
            return (userID, WeekSettlement.memberFrom(settleFrom: settleFrom, joined: day))
        }
    }

    /// The group's day totals in `days`, by user id and date.
    private mutating func totals(_ days: ClosedRange<Int>, userID: UserID? = nil) throws
        -> [UserID: [LocalDate: WeekSettlement.Day]]
    {
        var result: [UserID: [LocalDate: WeekSettlement.Day]] = [:]
        var sql =
            "SELECT user_id, date, vice_blocks, goal_blocks, version FROM day_total WHERE code = ? AND date BETWEEN ? AND ?"
        var arguments: StatementArguments = [code.value, days.lowerBound, days.upperBound]
        if let userID {
            sql += " AND user_id = ?"
            arguments += [userID]
        }
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            guard let total = filter.keep(row, .dayTotal, decode: StoredDayTotal.init(row:)) else { continue }
            result[total.userID, default: [:]][total.date] = WeekSettlement.Day(
                viceBlocks: total.viceBlocks, goalBlocks: total.goalBlocks)
        }
        return result
    }

    /// The rates a pending result was closed with, or nil (and the result left out) when they
    /// cannot be right.
    private mutating func rates(of result: WeekResult) throws -> (kept: Int, over: Int)? {
        let stored = try Row.fetchOne(
            db,
            sql: "SELECT kept_day_coins, over_day_coins FROM week_result WHERE code = ? AND user_id = ? AND week = ?",
            arguments: [code.value, result.userID, result.week.dayNumber])
        let kept: Int = stored?.readable("kept_day_coins") ?? -1
        let over: Int = stored?.readable("over_day_coins") ?? -1
        guard SettlementRules.coinsRange.contains(kept), SettlementRules.coinsRange.contains(over) else {
            filter.leaveOut(
                LeftOutRow(
                    .weekResult, key: "\(result.userID) \(result.week)",
                    reason: "the rates it was closed with are not 0 to 1000 coins a day"))
            return nil
        }
        return (kept, over)
    }

    private func insert(userID: UserID, week: LocalDate, outcome: WeekSettlement.Outcome, rules: SettlementRules)
        throws
    {
        let (status, tally, coins): (WeekResult.Status, WeekTally, Int)
        switch outcome {
        case .pending(let counted): (status, tally, coins) = (.pending, counted, 0)
        case .settled(let counted, let amount): (status, tally, coins) = (.settled, counted, amount)
        case .notTheirs: return
        }
        try db.execute(
            sql: """
                INSERT INTO week_result (code, user_id, week, status, kept_days, over_days, missing_days, coins,
                    rule, kept_day_coins, over_day_coins, settled_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                code.value, userID, week.dayNumber, status.rawValue, tally.keptDays, tally.overDays,
                tally.missingDays, coins, rules.missingDays.rawValue, rules.keptDayCoins, rules.overDayCoins,
                status == .settled ? at : nil,
            ])
    }

    private func update(
        _ result: WeekResult, tally: WeekTally, status: WeekResult.Status, coins: Int, settledAt: Int64?
    ) throws {
        try db.execute(
            sql: """
                UPDATE week_result SET status = ?, kept_days = ?, over_days = ?, missing_days = ?, coins = ?,
                    settled_at = ?
                WHERE code = ? AND user_id = ? AND week = ?
                """,
            arguments: [
                status.rawValue, tally.keptDays, tally.overDays, tally.missingDays, coins, settledAt, code.value,
                result.userID, result.week.dayNumber,
            ])
    }
}
