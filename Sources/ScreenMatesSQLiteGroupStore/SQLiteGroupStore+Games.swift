import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// Group challenges, coins and the weekly settlement in the shared file (schema level 2): each
// operation one immediate transaction that checks and writes together, so members settling or
// reporting at once each change a thing once. The settlement's arithmetic is `WeekSettlement`,
// which the PostgreSQL functions keep alike (the contract suite checks both).
extension SQLiteGroupStore {
    // MARK: - Group challenges

    public func createGroupChallenge(_ challenge: Challenge, code: GroupCode, creatorID: UserID, now: Date)
        async throws(GroupStoreError)
    {
        try GroupStoreRules.check(challenge)
        let at = try StoredInstant.milliseconds(now)
        let startsAt = try StoredInstant.milliseconds(ifAny: challenge.startsAt)
        let rule = GroupStoreRules.ruleText(challenge.rule)
        try await write { db in
            try Self.requireGroup(db, code: code)
            guard try Self.isMember(db, code: code, userID: creatorID) else {
                throw GroupStoreError.notAMember(code: code)
            }
            try db.execute(
                sql: """
                    INSERT INTO group_challenge (code, id, creator_id, rule, first_day, days, reward, penalty,
                        starts_at, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [
                    code.value, challenge.id, creatorID, rule, challenge.firstDay.dayNumber, challenge.days,
                    challenge.reward, challenge.penalty, startsAt, at,
                ])
            guard db.changesCount > 0 else { throw GroupStoreError.challengeExists(challenge.id) }
            try db.execute(
                sql: """
                    INSERT INTO challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
                    VALUES (?, ?, ?, 'in', 0, ?)
                    """, arguments: [code.value, challenge.id, creatorID, at])
            try Self.bump(db, code: code)
        }
    }

    public func joinGroupChallenge(id: String, code: GroupCode, userID: UserID, today: LocalDate, now: Date)
        async throws(GroupStoreError) -> GroupChallenge
    {
        try GroupStoreRules.check(challengeID: id)
        let at = try StoredInstant.milliseconds(now)
        let day = GroupStoreRules.clampedDayNumber(today)
        return try await write { db in
            try Self.requireGroup(db, code: code)
            guard try Self.isMember(db, code: code, userID: userID) else {
                throw GroupStoreError.notAMember(code: code)
            }
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM group_challenge WHERE code = ? AND id = ?", arguments: [code.value, id])
            else { throw GroupStoreError.unknownChallenge(id) }
            var filter = GroupRowFilter()
            guard let challenge = filter.keep(row, .challenge, decode: StoredGroupChallenge.init(row:)) else {
                let reason = filter.leftOut.first?.reason ?? "it cannot be read"
                throw GroupStoreError.invalidValue(
                    "The group's challenge \(SafeText.displayable(id)) cannot be right (\(reason)); it cannot be joined."
                )
            }
            let joined =
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT count(*) FROM challenge_participant WHERE code = ? AND challenge_id = ? AND user_id = ?",
                    arguments: [code.value, id, userID]) ?? 0
            if joined == 0 {
                guard day <= challenge.challenge.firstDay.dayNumber else {
                    throw GroupStoreError.challengeClosed(id)
                }
                try db.execute(
                    sql: """
                        INSERT INTO challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
                        VALUES (?, ?, ?, 'in', 0, ?)
                        """, arguments: [code.value, id, userID, at])
                try Self.bump(db, code: code)
            }
            return challenge
        }
    }

    @discardableResult
    public func reportParticipant(_ report: ParticipantReport, code: GroupCode) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(report)
        let decidedAt = try StoredInstant.milliseconds(ifAny: report.decidedAt)
        return try await write { db in
            try Self.requireGroup(db, code: code)
            let table = "challenge_participant"
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT state, days_kept, joined_at FROM challenge_participant
                        WHERE code = ? AND challenge_id = ? AND user_id = ?
                        """, arguments: [code.value, report.challengeID, report.userID])
            else {
                let exists =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM group_challenge WHERE code = ? AND id = ?",
                        arguments: [code.value, report.challengeID]) ?? 0
                throw exists > 0
                    ? GroupStoreError.notAMember(code: code) : GroupStoreError.unknownChallenge(report.challengeID)
            }
            guard let next = try Self.taking(report, decidedAt: decidedAt, over: row, in: table) else { return false }
            try db.execute(
                sql: """
                    UPDATE challenge_participant SET state = ?, days_kept = ?, decided_at = ?
                    WHERE code = ? AND challenge_id = ? AND user_id = ?
                    """,
                arguments: [
                    next.state.rawValue, next.daysKept, next.state.isDecided ? decidedAt : nil, code.value,
                    report.challengeID, report.userID,
                ])
            try Self.bump(db, code: code)
            return true
        }
    }

    /// A challenge that cannot be right — a rule this version cannot read (a newer version's, or
    /// malformed) or one that makes no sense — is left out and named, as is a participant's row.
    /// With `changedAfter`, the challenges that changed after it or whose parts did, each whole.
    public func groupChallenges(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError)
        -> [GroupChallengeBoard]
    {
        let after = changedAfter ?? -1
        return try await read { db, filter in
            try Self.requireGroup(db, code: code)
            let boards = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM group_challenge c
                    WHERE code = ? AND (seq > ? OR id IN (
                        SELECT challenge_id FROM challenge_participant WHERE code = c.code AND seq > ?))
                    ORDER BY created_at DESC, id
                    """,
                arguments: [code.value, after, after]
            ).compactMap { row in filter.keep(row, .challenge, decode: StoredGroupChallenge.init(row:)) }
            let shown = Set(boards.map(\.id))
            var participants: [String: [ParticipantStanding]] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.challenge_id, p.user_id, m.display_name, p.state, p.days_kept, p.joined_at, p.decided_at
                    FROM challenge_participant p JOIN member m ON m.code = p.code AND m.user_id = p.user_id
                    WHERE p.code = ? AND p.challenge_id IN (
                        SELECT id FROM group_challenge c WHERE c.code = p.code AND (c.seq > ? OR c.id IN (
                            SELECT challenge_id FROM challenge_participant q WHERE q.code = c.code AND q.seq > ?)))
                    ORDER BY p.challenge_id, p.joined_at, p.user_id
                    """, arguments: [code.value, after, after])
            for row in rows {
                // The parts of a challenge left out go with it, unnamed.
                guard let id: String = row.readable("challenge_id"), shown.contains(id) else { continue }
                guard let standing = filter.keep(row, .participant, decode: StoredParticipant.init(row:)) else {
                    continue
                }
                participants[id, default: []].append(standing)
            }
            return boards.map { GroupChallengeBoard(challenge: $0, participants: participants[$0.id] ?? []) }
        }
    }

    // MARK: - Coins

    @discardableResult
    public func reportStanding(_ report: StandingReport) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(report)
        let at = try StoredInstant.milliseconds(report.updatedAt)
        return try await write { db in
            let codes = try Self.groupsOf(db, userID: report.userID).map(\.code)
            try db.execute(
                sql: """
                    INSERT INTO coin_standing (user_id, display_name, coins, badges, is_public, version, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,
                        coins = excluded.coins, badges = excluded.badges, is_public = excluded.is_public,
                        version = excluded.version, updated_at = excluded.updated_at
                    WHERE excluded.version > coin_standing.version
                    """,
                arguments: [
                    report.userID, report.displayName.value, report.coins, report.badges, report.isPublic,
                    report.version, at,
                ])
            guard db.changesCount > 0 else { return false }
            for code in codes { try Self.bump(db, code: code) }
            return true
        }
    }

    /// With `changedAfter`, of the members whose row changed after it.
    public func memberCoins(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [MemberCoins] {
        try await read { db, filter in
            try Self.requireGroup(db, code: code)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT s.user_id, s.coins, s.badges, s.updated_at
                    FROM coin_standing s JOIN member m ON m.user_id = s.user_id
                    WHERE m.code = ? AND m.seq > ? ORDER BY s.user_id
                    """, arguments: [code.value, changedAfter ?? -1]
            ).compactMap { row in filter.keep(row, .coins, decode: StoredCoins.init(row:)) }
        }
    }

    public func publicRanking(userID: UserID, limit: Int) async throws(GroupStoreError) -> PublicRanking {
        let cap = min(max(limit, 1), GroupStoreRules.publicRankingLimit)
        return try await read { db, filter in
            let all = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.user_id, s.display_name, s.coins, s.badges FROM coin_standing s
                    WHERE s.is_public AND EXISTS (SELECT 1 FROM member m WHERE m.user_id = s.user_id)
                    """
            ).compactMap { row in
                filter.keep(row, .publicStanding) { row in try StoredPublicStanding(row: row, me: userID.value) }
            }
            let ranked = CoinRanking.rank(all)
            let myRank = ranked.first { $0.standing.isMe }?.rank
            return PublicRanking(standings: ranked.prefix(cap).map(\.standing), total: all.count, myRank: myRank)
        }
    }

    // MARK: - The weekly settlement

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

    /// Takes away the group's day totals older than `GroupStoreRules.retainedFrom(today:)`,
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

    /// What `report` makes of the participant's stored `row` (state, days kept, joined at) of
    /// `table`, or nil when it changes nothing (`ParticipantStanding.taking`).
    static func taking(_ report: ParticipantReport, decidedAt: Int64?, over row: Row, in table: String) throws
        -> ParticipantStanding?
    {
        guard let state = ParticipantState(rawValue: try row.checked("state", in: table)) else {
            throw UnreadableValue(table: table, column: "state")
        }
        let stored = ParticipantStanding(
            userID: report.userID, name: "", state: state, daysKept: try row.checked("days_kept", in: table),
            joinedAt: StoredInstant.date(milliseconds: try row.checked("joined_at", in: table)))
        return stored.taking(
            state: report.state, daysKept: report.daysKept, decidedAt: decidedAt.map(StoredInstant.date(milliseconds:)))
    }

    /// Whether the user is in the group (their row is not read: one damaged by someone else still
    /// counts).
    static func isMember(_ db: Database, code: GroupCode, userID: UserID) throws -> Bool {
        try MemberRecord.inGroup(code).filter(MemberRecord.Columns.userID == userID).fetchCount(db) > 0
    }

    /// The groups the user is in (with the profile version stored in each); a user in none gets
    /// what `upsertProfile` gives.
    static func groupsOf(_ db: Database, userID: UserID) throws -> [(code: GroupCode, version: Int64?)] {
        let memberships = try memberships(db, userID: userID)
        guard memberships.isEmpty else { return memberships }
        let last = try Row.fetchOne(db, sql: "SELECT code FROM last_group WHERE user_id = ?", arguments: [userID])
        if let text: String = last?.readable("code"), let code = try? GroupCode(validating: text) {
            throw GroupStoreError.notAMember(code: code)
        }
        throw GroupStoreError.invalidValue("User \(userID) has not joined a group in this group store; join one first.")
    }

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
