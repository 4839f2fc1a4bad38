import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

// The weekly settlement on PostgreSQL: the group's rules and the changes to come
// (`settlement_schedule`, `change_settlement_rules`), and settling (`settle_weeks` and its
// neighbours in `Schema/Functions/`), each one call that checks and writes in one transaction;
// the settlement is computed by the server, so no client can settle for another.
extension PostgresGroupStore {
    public func settlementRules(code: GroupCode) async throws(GroupStoreError) -> SettlementSchedule {
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, from_day, week_start, kept_day_coins, over_day_coins, missing_days
                FROM screenmates.settlement_schedule(\(me.id), \(me.secret), \(code.value))
                """
            )
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        var filter = GroupRowFilter()
        let schedule = try decode("the settlement rules") {
            guard let first = rows.first else { throw UnreadableValue(what: "no settlement rules") }
            let (_, _, weekStart, kept, over, missing) = try first.decode(
                (Bool, Int64?, Int32, Int64, Int64, String).self)
            // Rules that make no sense are left out: the standard ones show until a member sets them.
            let rules =
                filter.keep(
                    StoredSettlementRules(
                        code: code.value, weekStart: Int64(weekStart), keptDayCoins: kept, overDayCoins: over,
                        missingDays: missing)) ?? .standard
            let changes = try rows.dropFirst().compactMap { row -> SettlementRulesChange? in
                let (_, from, _, kept, over, missing) = try row.decode(
                    (Bool, Int64?, Int32, Int64, Int64, String).self)
                return filter.keep(
                    StoredRulesChange(
                        code: code.value, weekStart: rules.weekStart, fromDay: from ?? Int64.min, keptDayCoins: kept,
                        overDayCoins: over, missingDays: missing))
            }
            return SettlementSchedule(rules: rules, changes: changes)
        }
        filter.report()
        return schedule
    }

    /// The server takes the instant from its own clock (from `now` only where the store lets
    /// members choose their clock: a test server).
    @discardableResult
    public func setSettlementRules(_ rules: SettlementRules, code: GroupCode, userID: UserID, now: Date)
        async throws(GroupStoreError) -> LocalDate?
    {
        try GroupStoreRules.check(rules)
        let (weekStart, kept, over, missing) = (
            Int32(rules.weekStart), Int64(rules.keptDayCoins), Int64(rules.overDayCoins), rules.missingDays.rawValue
        )
        let at = try StoredInstant.milliseconds(now)
        let me = try caller(userID)
        let rows = try await perform(OperationContext(code: code, userID: userID)) { client in
            try await client.writeRows(
                """
                SELECT outcome, from_day FROM screenmates.change_settlement_rules(\(me.id), \(me.secret), \(code.value),
                    \(weekStart), \(kept), \(over), \(missing), \(at))
                """
            )
        }
        let (answer, from) = try decode("setting the settlement rules") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to setting the settlement rules") }
            return try row.decode((String, Int64?).self)
        }
        switch GamesOutcome(rawValue: answer) {
        case .set:
            guard let from else { return nil }
            guard GroupStoreRules.storableDayNumbers.contains(Int(clamping: from)) else {
                throw unexpected("setting the settlement rules")
            }
            return LocalDate(dayNumber: Int(from))
        case .unknown: throw .unknownCode(code)
        case .notMember: throw .notAMember(code: code)
        case .weekFixed: throw .invalidValue(GroupStoreRules.weekStartFixed)
        default: throw unexpected("setting the settlement rules")
        }
    }

    @discardableResult
    public func settleWeeks(code: GroupCode, today: LocalDate, now: Date) async throws(GroupStoreError) -> Int {
        let day = Int64(GroupStoreRules.clampedDayNumber(today))
        let at = try StoredInstant.milliseconds(now)
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.writeRows(
                """
                SELECT known, settled FROM screenmates.settle_weeks(\(me.id), \(me.secret), \(code.value), \(day), \(at))
                """
            )
        }
        let (known, settled) = try decode("the settlement") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to settling") }
            return try row.decode((Bool, Int64).self)
        }
        guard known else { throw .unknownCode(code) }
        return Int(settled)
    }

    public func weekResults(code: GroupCode, weeks: ClosedRange<LocalDate>, changedAfter: Int64?)
        async throws(GroupStoreError)
        -> [WeekResult]
    {
        let first = Int64(GroupStoreRules.clampedDayNumber(weeks.lowerBound))
        let last = Int64(GroupStoreRules.clampedDayNumber(weeks.upperBound))
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, user_id, week, status, kept_days, over_days, missing_days, coins, rule, settled_at
                FROM screenmates.week_results_after(\(me.id), \(me.secret), \(code.value), \(first), \(last),
                    \(changedAfter))
                """
            )
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        var filter = GroupRowFilter()
        let results = try decode("the week results") {
            try rows.compactMap { row in
                let (_, user, week, status, kept, over, missing, coins, rule, settledAt) = try row.decode(
                    (Bool, String, Int64, String, Int64, Int64, Int64, Int64, String, Int64?).self)
                return filter.keep(
                    StoredWeekResult(
                        userID: user, week: week, status: status, keptDays: kept, overDays: over, missingDays: missing,
                        coins: coins, rule: rule, settledAt: settledAt))
            }
        }
        filter.report()
        return results
    }
}
