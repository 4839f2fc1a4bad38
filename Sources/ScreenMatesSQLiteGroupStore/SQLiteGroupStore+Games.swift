import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// Group challenges and coins in the shared file (schema level 2): each operation one immediate
// transaction that checks and writes together, so members reporting at once each change a thing
// once. The weekly settlement is in SQLiteGroupStore+Settlement.swift.
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
}
