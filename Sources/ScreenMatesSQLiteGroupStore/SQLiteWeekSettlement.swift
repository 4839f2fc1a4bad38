import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

/// The weekly settlement of one group in the shared file, inside the caller's write
/// transaction: a result for every member's closed week that has none, and every pending week
/// whose missing days have arrived made final (`WeekSettlement` decides both).
struct SQLiteWeekSettlement {
    let db: Database
    let code: GroupCode
    let rules: SettlementRules
    let settleFrom: LocalDate
    /// Milliseconds: when results made final here were settled.
    let at: Int64

    /// A member's week: one result at most.
    private struct MemberWeek: Hashable {
        let userID: UserID
        /// The week's first day number.
        let week: Int
    }

    /// Rows written, and how many of them became final.
    func run(today: LocalDate) throws -> (written: Int, final: Int) {
        let members = try Row.fetchAll(
            db, sql: "SELECT user_id, joined_at FROM member WHERE code = ?", arguments: [code.value]
        ).map { row -> (UserID, LocalDate) in
            let joined = SQLiteInstant.dayNumber(ofMilliseconds: try row.checked("joined_at", in: "member"))
            return (
                try row.checked("user_id", in: "member"),
                WeekSettlement.memberFrom(settleFrom: settleFrom, joined: LocalDate(dayNumber: joined))
            )
        }
        let from = Dictionary(members, uniquingKeysWith: { first, _ in first })
        let weeks = WeekSettlement.closedWeeks(from: settleFrom, today: today, rules: rules)
        let pending = try Row.fetchAll(
            db, sql: "SELECT * FROM week_result WHERE code = ? AND status = 'pending'", arguments: [code.value]
        ).map(Self.result)
        var written = 0
        var final = 0
        if let first = weeks.first, let last = weeks.last {
            let days = try totals(first.dayNumber...(last.dayNumber + 6))
            let existing = Set(
                try Row.fetchAll(
                    db, sql: "SELECT user_id, week FROM week_result WHERE code = ? AND week BETWEEN ? AND ?",
                    arguments: [code.value, first.dayNumber, last.dayNumber]
                ).map { row in
                    MemberWeek(
                        userID: try row.checked("user_id", in: "week_result"),
                        week: try row.checked("week", in: "week_result"))
                })
            for week in weeks {
                for (userID, memberFrom) in members
                where !existing.contains(MemberWeek(userID: userID, week: week.dayNumber)) {
                    let outcome = WeekSettlement.settle(
                        week: week, memberFrom: memberFrom, days: days[userID] ?? [:], rule: rules.missingDays,
                        keptDayCoins: rules.keptDayCoins, overDayCoins: rules.overDayCoins)
                    guard outcome != .notTheirs else { continue }
                    try insert(userID: userID, week: week, outcome: outcome)
                    written += 1
                    if case .settled = outcome { final += 1 }
                }
            }
        }
        for result in pending {
            guard let memberFrom = from[result.userID] else { continue }
            let days = try totals(result.week.dayNumber...(result.week.dayNumber + 6), userID: result.userID)
            let stored = try Row.fetchOne(
                db,
                sql:
                    "SELECT kept_day_coins, over_day_coins FROM week_result WHERE code = ? AND user_id = ? AND week = ?",
                arguments: [code.value, result.userID, result.week.dayNumber])
            let kept: Int = try stored?.checked("kept_day_coins", in: "week_result") ?? rules.keptDayCoins
            let over: Int = try stored?.checked("over_day_coins", in: "week_result") ?? rules.overDayCoins
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

    /// The group's day totals in `days`, by user id and date.
    private func totals(_ days: ClosedRange<Int>, userID: UserID? = nil) throws
        -> [UserID: [LocalDate: WeekSettlement.Day]]
    {
        var result: [UserID: [LocalDate: WeekSettlement.Day]] = [:]
        var request = DayTotalRecord.inGroup(code, days: days)
        if let userID { request = request.filter(DayTotalRecord.Columns.userID == userID) }
        let records = try request.fetchAll(db)
        for record in records {
            result[record.userID, default: [:]][LocalDate(dayNumber: record.date)] = WeekSettlement.Day(
                viceBlocks: record.viceBlocks, goalBlocks: record.goalBlocks)
        }
        return result
    }

    private func insert(userID: UserID, week: LocalDate, outcome: WeekSettlement.Outcome) throws {
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

    /// A stored result, checked.
    static func result(_ row: Row) throws -> WeekResult {
        let table = "week_result"
        guard let status = WeekResult.Status(rawValue: try row.checked("status", in: table)) else {
            throw UnreadableValue(table: table, column: "status")
        }
        guard let rule = MissingDaysRule(rawValue: try row.checked("rule", in: table)) else {
            throw UnreadableValue(table: table, column: "rule")
        }
        let settledAt: Int64? = try row.checkedIfPresent("settled_at", in: table)
        return WeekResult(
            userID: try row.checked("user_id", in: table),
            week: try SQLiteInstant.localDate(try row.checked("week", in: table), table: table, column: "week"),
            status: status,
            tally: WeekTally(
                keptDays: try row.checked("kept_days", in: table), overDays: try row.checked("over_days", in: table),
                missingDays: try row.checked("missing_days", in: table)),
            coins: try row.checked("coins", in: table), rule: rule,
            settledAt: settledAt.map(SQLiteInstant.date(milliseconds:)))
    }
}
