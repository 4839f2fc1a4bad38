import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// The weekly settlement in the shared file: the group's rules and the changes to come (level 5),
// and settling in one immediate transaction, so members settling at once settle each week once.
// The arithmetic is `WeekSettlement` and `SettlementSchedule`, which the PostgreSQL functions keep
// alike (the contract suite and PostgresSettlementAgreementTests check both).
extension SQLiteGroupStore {
    /// Rules that cannot be right are left out and named: the standard rules stand in for them,
    /// and a change that cannot be right is left out of the schedule.
    public func settlementRules(code: GroupCode) async throws(GroupStoreError) -> SettlementSchedule {
        try await read { db, filter in
            switch try Self.schedule(db, code: code, filter: &filter) {
            case .success(let found): return found.schedule
            case .failure(let row):
                filter.leaveOut(row)
                return SettlementSchedule(rules: .standard)
            }
        }
    }

    @discardableResult
    public func setSettlementRules(_ rules: SettlementRules, code: GroupCode, userID: UserID, now: Date)
        async throws(GroupStoreError) -> LocalDate?
    {
        try GroupStoreRules.check(rules)
        return try await write { db in
            guard try Self.isMember(db, code: code, userID: userID) else {
                throw GroupStoreError.notAMember(code: code)
            }
            // Rules that cannot be right may be set again (the week start counts as changed, and
            // the rates as set at once).
            var ignored = GroupRowFilter()
            let found = try? Self.schedule(db, code: code, filter: &ignored).get().schedule
            if found?.rules.weekStart != rules.weekStart {
                let settled =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM week_result WHERE code = ?", arguments: [code.value])
                    ?? 0
                if settled > 0 { throw GroupStoreError.invalidValue(GroupStoreRules.weekStartFixed) }
            }
            let alone = try MemberRecord.inGroup(code).fetchCount(db) == 1
            var schedule = found ?? SettlementSchedule(rules: rules)
            let from = schedule.set(rules, at: now, atOnce: alone || found == nil)
            try Self.store(schedule, db, code: code)
            try Self.bump(db, code: code)
            return from
        }
    }

    /// Rows that cannot be right are left out of the settlement and named: a member's row (their
    /// weeks wait), a day total (the day counts as missing), a pending result (it stays pending),
    /// a change of the rates (the weeks keep the rates before it). Rules that cannot be right
    /// settle nothing until a member sets them again.
    @discardableResult
    public func settleWeeks(code: GroupCode, today: LocalDate, now: Date) async throws(GroupStoreError) -> Int {
        let at = try StoredInstant.milliseconds(now)
        return try await write { db, filter in
            let (schedule, settleFrom): (SettlementSchedule, LocalDate)
            switch try Self.schedule(db, code: code, filter: &filter) {
            case .success(let found): (schedule, settleFrom) = found
            case .failure(let row):
                filter.leaveOut(row)
                return 0
            }
            var settlement = SQLiteWeekSettlement(
                db: db, code: code, schedule: schedule, settleFrom: settleFrom, at: at)
            let changes = try settlement.run(today: today)
            filter.leaveOut(contentsOf: settlement.leftOut)
            try Self.retainDayTotals(db, code: code, today: today)
            let removed = try Self.retainChallenges(db, code: code, today: today)
            let folded = schedule.folded(today: today)
            if folded != schedule { try Self.store(folded, db, code: code) }
            if changes.written + removed > 0 || folded != schedule { try Self.bump(db, code: code) }
            return changes.final
        }
    }

    /// Writes `schedule` as the group's rules and its changes still to come.
    static func store(_ schedule: SettlementSchedule, _ db: Database, code: GroupCode) throws {
        let rules = schedule.rules
        try db.execute(
            sql: """
                UPDATE group_info SET week_start = ?, kept_day_coins = ?, over_day_coins = ?, missing_days = ?
                WHERE code = ?
                """,
            arguments: [
                rules.weekStart, rules.keptDayCoins, rules.overDayCoins, rules.missingDays.rawValue, code.value,
            ])
        try db.execute(sql: "DELETE FROM rules_change WHERE code = ?", arguments: [code.value])
        for change in schedule.changes {
            try db.execute(
                sql: """
                    INSERT INTO rules_change (code, from_day, kept_day_coins, over_day_coins, missing_days)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    code.value, change.from.dayNumber, change.rules.keptDayCoins, change.rules.overDayCoins,
                    change.rules.missingDays.rawValue,
                ])
        }
    }

    /// Takes away the group's day totals (the member's sums and their machines' alike) older than
    /// `GroupStoreRules.retainedFrom(today:)`,
    /// except those of a member's week still pending. No reader's window reaches them, so nothing
    /// any member sees changes and no removal is marked (a day total goes otherwise only with its
    /// member, whose removal is).
    static func retainDayTotals(_ db: Database, code: GroupCode, today: LocalDate) throws {
        try db.execute(
            sql: """
                DELETE FROM day_total WHERE code = ? AND date < ? AND NOT EXISTS (
                    SELECT 1 FROM week_result r
                    WHERE r.code = day_total.code AND r.user_id = day_total.user_id AND r.status = 'pending'
                        AND day_total.date BETWEEN r.week AND r.week + 6)
                """,
            arguments: [code.value, GroupStoreRules.retainedFrom(today: today).dayNumber])
        try db.execute(
            sql: """
                DELETE FROM machine_day_total WHERE code = ? AND date < ? AND NOT EXISTS (
                    SELECT 1 FROM week_result r
                    WHERE r.code = machine_day_total.code AND r.user_id = machine_day_total.user_id
                        AND r.status = 'pending' AND machine_day_total.date BETWEEN r.week AND r.week + 6)
                """,
            arguments: [code.value, GroupStoreRules.retainedFrom(today: today).dayNumber])
        // A removed machine none of whose days is kept any more, and whose today is over, is let
        // go: it no longer counts against its member's machines kept.
        try db.execute(
            sql: """
                DELETE FROM machine
                WHERE user_id IN (SELECT user_id FROM member WHERE code = ?) AND retired_at IS NOT NULL
                    AND coalesce(day, ? - 2) < ? - 1
                    AND NOT EXISTS (SELECT 1 FROM machine_day_total t
                        WHERE t.user_id = machine.user_id AND t.machine_id = machine.machine_id)
                """,
            arguments: [code.value, today.dayNumber, today.dayNumber])
    }

    /// Takes away the group's challenges that ended before `GroupStoreRules.retainedFrom(today:)`,
    /// with their participants (as the server's `retain_challenges` does): every member's part in
    /// them was decided by then. Their removals are marked; answers how many went.
    static func retainChallenges(_ db: Database, code: GroupCode, today: LocalDate) throws -> Int {
        let from = GroupStoreRules.retainedFrom(today: today).dayNumber
        try db.execute(
            sql: """
                DELETE FROM challenge_participant WHERE code = ? AND challenge_id IN (
                    SELECT id FROM group_challenge WHERE code = ? AND first_day + days <= ?)
                """,
            arguments: [code.value, code.value, from])
        try db.execute(
            sql: "DELETE FROM group_challenge WHERE code = ? AND first_day + days <= ?",
            arguments: [code.value, from])
        return db.changesCount
    }

    public func weekResults(code: GroupCode, weeks: ClosedRange<LocalDate>, changedAfter: Int64?)
        async throws(GroupStoreError) -> [WeekResult]
    {
        let first = GroupStoreRules.clampedDayNumber(weeks.lowerBound)
        let last = GroupStoreRules.clampedDayNumber(weeks.upperBound)
        return try await read { db, filter in
            try Self.requireGroup(db, code: code)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM week_result WHERE code = ? AND week BETWEEN ? AND ? AND seq > ?
                    ORDER BY week, user_id
                    """,
                arguments: [code.value, first, last, changedAfter ?? -1]
            ).compactMap { row in filter.keep(row, .weekResult, decode: StoredWeekResult.init(row:)) }
        }
    }

    // MARK: - Inside a transaction

    /// The group's schedule and the first day it settles (its creation day unless set), or the
    /// reason its rules cannot be right; a change that cannot be right is left out (`filter`).
    static func schedule(_ db: Database, code: GroupCode, filter: inout GroupRowFilter) throws
        -> Result<(schedule: SettlementSchedule, settleFrom: LocalDate), LeftOutRow>
    {
        let (rules, settleFrom): (SettlementRules, LocalDate)
        switch try self.rules(db, code: code) {
        case .success(let found): (rules, settleFrom) = found
        case .failure(let row): return .failure(row)
        }
        let changes = try Row.fetchAll(
            db, sql: "SELECT * FROM rules_change WHERE code = ? ORDER BY from_day", arguments: [code.value]
        ).compactMap { row in
            filter.keep(row, .rulesChange) { row in try StoredRulesChange(row: row, weekStart: rules.weekStart) }
        }
        return .success((SettlementSchedule(rules: rules, changes: changes), settleFrom))
    }

    /// The group's rules and the first day it settles (its creation day unless set), or the
    /// reason they cannot be right.
    static func rules(_ db: Database, code: GroupCode) throws
        -> Result<(rules: SettlementRules, settleFrom: LocalDate), LeftOutRow>
    {
        let table = "group_info"
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT week_start, kept_day_coins, over_day_coins, missing_days, settle_from, created_at
                    FROM group_info WHERE code = ?
                    """, arguments: [code.value])
        else { throw GroupStoreError.unknownCode(code) }
        var filter = GroupRowFilter()
        guard
            let rules = filter.keep(
                row, .settlementRules, key: code.value,
                decode: { row in
                    try StoredSettlementRules(row: row, code: code.value)
                })
        else { return .failure(filter.leftOut[0]) }
        let start: Int64
        do {
            start =
                try row.checkedIfPresent("settle_from", in: table)
                ?? Int64(StoredInstant.dayNumber(ofMilliseconds: row.checked("created_at", in: table)))
        } catch {
            return .failure(LeftOutRow(.settlementRules, key: code.value, reason: "settle_from cannot be read"))
        }
        guard GroupStoreRules.storableDayNumbers.contains(Int(clamping: start)) else {
            return .failure(
                LeftOutRow(
                    .settlementRules, key: code.value,
                    reason: "settle_from is day number \(start), outside the years 1 to 9999"))
        }
        return .success((rules, LocalDate(dayNumber: Int(start))))
    }
}
