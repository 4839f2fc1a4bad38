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
        let at = try SQLiteInstant.milliseconds(now)
        let startsAt = try challenge.startsAt.map { instant throws(GroupStoreError) in
            try SQLiteInstant.milliseconds(instant)
        }
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
        let at = try SQLiteInstant.milliseconds(now)
        let day = GroupStoreRules.clampedDayNumber(today)
        return try await write { db in
            try Self.requireGroup(db, code: code)
            guard try Self.isMember(db, code: code, userID: userID) else {
                throw GroupStoreError.notAMember(code: code)
            }
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM group_challenge WHERE code = ? AND id = ?", arguments: [code.value, id]),
                let challenge = try Self.groupChallenge(row)
            else { throw GroupStoreError.unknownChallenge(id) }
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
        let decidedAt = try report.decidedAt.map { instant throws(GroupStoreError) in
            try SQLiteInstant.milliseconds(instant)
        }
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
            guard let state = ParticipantState(rawValue: try row.checked("state", in: table)) else {
                throw UnreadableValue(table: table, column: "state")
            }
            let stored = ParticipantStanding(
                userID: report.userID, name: "", state: state, daysKept: try row.checked("days_kept", in: table),
                joinedAt: SQLiteInstant.date(milliseconds: try row.checked("joined_at", in: table)))
            guard
                let next = stored.taking(
                    state: report.state, daysKept: report.daysKept,
                    decidedAt: decidedAt.map(SQLiteInstant.date(milliseconds:)))
            else { return false }
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

    public func groupChallenges(code: GroupCode) async throws(GroupStoreError) -> [GroupChallengeBoard] {
        try await read { db in
            try Self.requireGroup(db, code: code)
            let table = "challenge_participant"
            var participants: [String: [ParticipantStanding]] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.challenge_id, p.user_id, m.display_name, p.state, p.days_kept, p.joined_at, p.decided_at
                    FROM challenge_participant p JOIN member m ON m.code = p.code AND m.user_id = p.user_id
                    WHERE p.code = ? ORDER BY p.challenge_id, p.joined_at, p.user_id
                    """, arguments: [code.value])
            for row in rows {
                guard let state = ParticipantState(rawValue: try row.checked("state", in: table)) else {
                    throw UnreadableValue(table: table, column: "state")
                }
                let decidedAt: Int64? = try row.checkedIfPresent("decided_at", in: table)
                let challengeID: String = try row.checked("challenge_id", in: table)
                participants[challengeID, default: []].append(
                    ParticipantStanding(
                        userID: try row.checked("user_id", in: table),
                        name: try row.checked("display_name", in: "member"), state: state,
                        daysKept: try row.checked("days_kept", in: table),
                        joinedAt: SQLiteInstant.date(milliseconds: try row.checked("joined_at", in: table)),
                        decidedAt: decidedAt.map(SQLiteInstant.date(milliseconds:))))
            }
            return try Row.fetchAll(
                db, sql: "SELECT * FROM group_challenge WHERE code = ? ORDER BY created_at DESC, id",
                arguments: [code.value]
            ).compactMap { row in
                // A kind of rule from a newer version is left out, not an error.
                try Self.groupChallenge(row).map { challenge in
                    GroupChallengeBoard(challenge: challenge, participants: participants[challenge.id] ?? [])
                }
            }
        }
    }

    // MARK: - Coins

    @discardableResult
    public func reportStanding(_ report: StandingReport) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(report)
        let at = try SQLiteInstant.milliseconds(report.updatedAt)
        return try await write { db in
            let codes = try Self.groupsOf(db, userID: report.userID)
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

    public func memberCoins(code: GroupCode) async throws(GroupStoreError) -> [MemberCoins] {
        try await read { db in
            try Self.requireGroup(db, code: code)
            let table = "coin_standing"
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT s.user_id, s.coins, s.badges, s.updated_at
                    FROM coin_standing s JOIN member m ON m.user_id = s.user_id
                    WHERE m.code = ? ORDER BY s.user_id
                    """, arguments: [code.value]
            ).map { row in
                MemberCoins(
                    userID: try row.checked("user_id", in: table), coins: try row.checked("coins", in: table),
                    badges: try row.checked("badges", in: table),
                    updatedAt: SQLiteInstant.date(milliseconds: try row.checked("updated_at", in: table)))
            }
        }
    }

    public func publicRanking(userID: UserID, limit: Int) async throws(GroupStoreError) -> PublicRanking {
        let cap = min(max(limit, 1), GroupStoreRules.publicRankingLimit)
        return try await read { db in
            let table = "coin_standing"
            let all = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.user_id, s.display_name, s.coins, s.badges FROM coin_standing s
                    WHERE s.is_public AND EXISTS (SELECT 1 FROM member m WHERE m.user_id = s.user_id)
                    """
            ).map { row in
                CoinStanding(
                    userID: try row.checked("user_id", in: table), name: try row.checked("display_name", in: table),
                    coins: try row.checked("coins", in: table), badges: try row.checked("badges", in: table),
                    isMe: try row.checked("user_id", in: table) == userID)
            }
            let ranked = CoinRanking.rank(all)
            let myRank = ranked.first { $0.standing.isMe }?.rank
            // No user ids leave the store.
            let shown = ranked.prefix(cap).map { entry in
                var standing = entry.standing
                standing.userID = nil
                return standing
            }
            return PublicRanking(standings: Array(shown), total: all.count, myRank: myRank)
        }
    }

    // MARK: - The weekly settlement

    public func settlementRules(code: GroupCode) async throws(GroupStoreError) -> SettlementRules {
        try await read { db in try Self.rules(db, code: code).rules }
    }

    public func setSettlementRules(_ rules: SettlementRules, code: GroupCode, userID: UserID)
        async throws(GroupStoreError)
    {
        try GroupStoreRules.check(rules)
        try await write { db in
            let current = try Self.rules(db, code: code).rules
            guard try Self.isMember(db, code: code, userID: userID) else {
                throw GroupStoreError.notAMember(code: code)
            }
            if current.weekStart != rules.weekStart {
                let settled =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM week_result WHERE code = ?", arguments: [code.value])
                    ?? 0
                if settled > 0 { throw GroupStoreError.invalidValue(GroupStoreRules.weekStartFixed) }
            }
            try db.execute(
                sql: """
                    UPDATE group_info SET week_start = ?, kept_day_coins = ?, over_day_coins = ?, missing_days = ?
                    WHERE code = ?
                    """,
                arguments: [
                    rules.weekStart, rules.keptDayCoins, rules.overDayCoins, rules.missingDays.rawValue, code.value,
                ])
            try Self.bump(db, code: code)
        }
    }

    @discardableResult
    public func settleWeeks(code: GroupCode, today: LocalDate, now: Date) async throws(GroupStoreError) -> Int {
        let at = try SQLiteInstant.milliseconds(now)
        return try await write { db in
            let (rules, settleFrom) = try Self.rules(db, code: code)
            let settlement = SQLiteWeekSettlement(db: db, code: code, rules: rules, settleFrom: settleFrom, at: at)
            let changes = try settlement.run(today: today)
            if changes.written > 0 { try Self.bump(db, code: code) }
            return changes.final
        }
    }

    public func weekResults(code: GroupCode, weeks: ClosedRange<LocalDate>) async throws(GroupStoreError)
        -> [WeekResult]
    {
        let first = GroupStoreRules.clampedDayNumber(weeks.lowerBound)
        let last = GroupStoreRules.clampedDayNumber(weeks.upperBound)
        return try await read { db in
            try Self.requireGroup(db, code: code)
            return try Row.fetchAll(
                db,
                sql: "SELECT * FROM week_result WHERE code = ? AND week BETWEEN ? AND ? ORDER BY week, user_id",
                arguments: [code.value, first, last]
            ).map(SQLiteWeekSettlement.result)
        }
    }

    // MARK: - Inside a transaction

    static func isMember(_ db: Database, code: GroupCode, userID: UserID) throws -> Bool {
        try MemberRecord.find(db, code: code, userID: userID) != nil
    }

    /// The groups the user is in; a user in none gets what `upsertProfile` gives.
    static func groupsOf(_ db: Database, userID: UserID) throws -> [GroupCode] {
        let memberships = try MemberRecord.filter(MemberRecord.Columns.userID == userID)
            .order(MemberRecord.Columns.code).fetchAll(db)
        guard memberships.isEmpty else { return try memberships.map { record throws in try record.groupCode } }
        if let last = try LastGroupRecord.fetchOne(db, key: userID) {
            guard let code = try? GroupCode(validating: last.code) else {
                throw UnreadableValue(table: LastGroupRecord.databaseTableName, column: "code")
            }
            throw GroupStoreError.notAMember(code: code)
        }
        throw GroupStoreError.invalidValue("User \(userID) has not joined a group in this group store; join one first.")
    }

    /// The group's rules and the first day it settles (its creation day unless set).
    static func rules(_ db: Database, code: GroupCode) throws -> (rules: SettlementRules, settleFrom: LocalDate) {
        let table = "group_info"
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT week_start, kept_day_coins, over_day_coins, missing_days, settle_from, created_at
                    FROM group_info WHERE code = ?
                    """, arguments: [code.value])
        else { throw GroupStoreError.unknownCode(code) }
        guard let missing = MissingDaysRule(rawValue: try row.checked("missing_days", in: table)) else {
            throw UnreadableValue(table: table, column: "missing_days")
        }
        let rules = SettlementRules(
            weekStart: try row.checked("week_start", in: table),
            keptDayCoins: try row.checked("kept_day_coins", in: table),
            overDayCoins: try row.checked("over_day_coins", in: table), missingDays: missing)
        guard rules.problem == nil else { throw UnreadableValue(table: table, column: "week_start") }
        let settleFrom: Int64? = try row.checkedIfPresent("settle_from", in: table)
        let day =
            try settleFrom.map { Int($0) }
            ?? SQLiteInstant.dayNumber(ofMilliseconds: row.checked("created_at", in: table))
        return (rules, try SQLiteInstant.localDate(day, table: table, column: "settle_from"))
    }

    /// A stored group challenge; nil for a rule this version cannot read.
    static func groupChallenge(_ row: Row) throws -> GroupChallenge? {
        let table = "group_challenge"
        guard let rule = GroupStoreRules.rule(fromText: try row.checked("rule", in: table)) else { return nil }
        let startsAt: Int64? = try row.checkedIfPresent("starts_at", in: table)
        return GroupChallenge(
            challenge: Challenge(
                id: try row.checked("id", in: table), rule: rule,
                firstDay: try SQLiteInstant.localDate(
                    try row.checked("first_day", in: table), table: table, column: "first_day"),
                days: try row.checked("days", in: table), reward: try row.checked("reward", in: table),
                penalty: try row.checked("penalty", in: table),
                startsAt: startsAt.map(SQLiteInstant.date(milliseconds:))
            ),
            creatorID: try row.checked("creator_id", in: table),
            createdAt: SQLiteInstant.date(milliseconds: try row.checked("created_at", in: table)))
    }
}
