import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// A group on a strict PostgreSQL store (the default policy: members do not choose their clock),
/// as a hostile member finds it: ana, the victim, and her friend bo, each with a login of their
/// own; eve, a member who attacks with raw SQL through the functions the schema grants, as psql
/// would; mal, a login in no group. With `sharedLogin` all four connect as one role, and only
/// their secrets tell them apart.
///
/// Days are the server's (UTC, `floor(epoch / 86400)`), read when the group is made, so the
/// tests hold on any day; a bound that must hold across a midnight is kept a day wider.
struct HostileGroup: Sendable {
    /// One member: profile, secret, login and their own client (whose keyring holds only them).
    struct Member: Sendable {
        let profile: MemberProfile
        let secret: MemberSecret
        let login: PostgresAddress
        let store: PostgresGroupStore

        var id: String { profile.userID.value }
        var userID: UserID { profile.userID }

        /// The first two arguments of every API function, as SQL: this member's id with their
        /// own secret, or with `secret`.
        func proof(secret other: MemberSecret? = nil) -> String { "'\(id)', '\((other ?? secret).hex)'" }
    }

    let owner: PostgresAddress
    let ana: Member
    let bo: Member
    let eve: Member
    let mal: Member
    let code: GroupCode
    /// The server's day when the group was made: every member joined on it.
    let today: LocalDate
    let now: Date

    /// The challenge ana shared, which bo joined.
    static let challengeID = "anaweek"

    var nowMilliseconds: Int64 { Int64(now.timeIntervalSince1970 * 1000) }
    /// A day `offset` days from the group's first, as the SQL number every function takes.
    func day(_ offset: Int) -> Int { today.dayNumber + offset }

    /// A new database with the schema (its policy untouched: strict), ana's group with bo and eve
    /// in it, their day totals, a challenge, coins, settlement rules and a settled week each.
    static func make(sharedLogin: Bool = false) async throws -> HostileGroup {
        let owner = try await PostgresTestServer.newDatabase()
        try await PostgresGroupStore(address: owner, keyring: .none).prepare()
        let today = LocalDate(dayNumber: try await serverDay(on: owner))
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let sharedRole = sharedLogin ? try await PostgresTestServer.newMemberRole(in: owner) : nil
        func member(_ id: String, _ name: String, blocks: Int, streak: Int) async throws -> Member {
            let login: PostgresAddress
            if let sharedRole {
                login = sharedRole
            } else {
                login = try await PostgresTestServer.newMemberRole(in: owner)
            }
            let userID = UserID(id)
            let secret = PostgresTestServer.secret(for: userID, salt: "hostile")
            let profile = MemberProfile(
                userID: userID, displayName: try DisplayName(validating: name), blocksToday: blocks, day: today,
                streak: streak, lastActive: nil, lastUpdated: now, version: 1)
            return Member(
                profile: profile, secret: secret, login: login,
                store: PostgresGroupStore(address: login, keyring: .single(userID, secret)))
        }
        let ana = try await member("ana23456", "ana", blocks: 3, streak: 4)
        let bo = try await member("bo234567", "bo", blocks: 1, streak: 9)
        let eve = try await member("eve23456", "eve", blocks: 0, streak: 0)
        let mal = try await member("mal23456", "mal", blocks: 0, streak: 0)

        let code = try await ana.store.createGroup(dailyGoalBlocks: 8, creator: ana.profile, now: now).code
        _ = try await bo.store.join(code: code, member: bo.profile, now: now)
        _ = try await eve.store.join(code: code, member: eve.profile, now: now)
        for member in [ana, bo] {
            try await member.store.upsertDayTotals(
                [DayTotal(userID: member.userID, date: today, viceBlocks: 2, goalBlocks: 8, version: 1)], code: code)
            try await member.store.reportStanding(
                StandingReport(
                    userID: member.userID, displayName: member.profile.displayName, coins: 120, badges: 3,
                    isPublic: member.id == ana.id, version: 1, updatedAt: now))
        }
        let challenge = Challenge(
            id: challengeID, rule: .dailyBlocks(max: 2, target: .allVice), firstDay: today, days: 7, reward: 40,
            penalty: 20)
        try await ana.store.createGroupChallenge(challenge, code: code, creatorID: ana.userID, now: now)
        _ = try await bo.store.joinGroupChallenge(
            id: challengeID, code: code, userID: bo.userID, today: today, now: now)
        try await ana.store.setSettlementRules(.standard, code: code, userID: ana.userID, now: now)
        // No week has closed in a group made today: a settled one each, written as the owner as
        // `settle_weeks` writes them (the group's change number moved with them).
        let week = today.dayNumber - 7
        try await PostgresTestServer.execute(
            "BEGIN",
            """
            INSERT INTO screenmates.week_result (code, user_id, week, status, kept_days, over_days, missing_days,
                coins, rule, kept_day_coins, over_day_coins, settled_at)
            VALUES ('\(code.value)', '\(ana.id)', \(week), 'settled', 6, 1, 0, 20, 'pending', 5, 10, 0),
                ('\(code.value)', '\(bo.id)', \(week), 'settled', 7, 0, 0, 35, 'pending', 5, 10, 0)
            """, "SELECT screenmates.touch('\(code.value)')", "COMMIT", on: owner)
        return HostileGroup(owner: owner, ana: ana, bo: bo, eve: eve, mal: mal, code: code, today: today, now: now)
    }

    /// The server's day number: what "today" is for a strict store.
    static func serverDay(on address: PostgresAddress) async throws -> Int {
        try await PostgresTestServer.withConnection(to: address) { connection in
            let rows = try await connection.query(
                "SELECT floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint", logger: logger
            ).collect()
            return Int(try #require(rows.first).decode(Int64.self))
        }
    }

    // MARK: - Raw calls, as psql makes them

    /// Runs `query` on a connection of its own as `login`: nil when it went through, else the
    /// SQLSTATE it was refused with.
    static func sqlState(of query: PostgresQuery, as login: PostgresAddress) async throws -> String? {
        try await PostgresTestServer.withConnection(to: login) { connection in
            try await sqlState(of: query, on: connection)
        }
    }

    static func sqlState(of query: PostgresQuery, on connection: PostgresConnection) async throws -> String? {
        do {
            _ = try await connection.query(query, logger: logger).collect()
            return nil
        } catch let error as PSQLError {
            guard let state = error.serverInfo?[.sqlState] else { throw error }
            return state
        }
    }

    /// Each call as `member`, which must be refused with `state`.
    static func expectRefused(
        _ calls: [PostgresQuery], as member: Member, with state: String = "SMVAL",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for call in calls {
            let refusal = try await sqlState(of: call, as: member.login)
            #expect(refusal == state, "\(call.sql): \(refusal ?? "it went through")", sourceLocation: sourceLocation)
        }
    }

    /// The first column of every row `sql` returns, as the store's owner.
    func values<T: PostgresDecodable & Sendable>(_ sql: String, _ type: T.Type) async throws -> [T] {
        try await PostgresTestServer.withConnection(to: owner) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).collect().map {
                try $0.decode(T.self)
            }
        }
    }

    // MARK: - What the victims hold

    /// Every row of `members` (their memberships, day totals, challenge parts, coins, week
    /// results, last group, identity, failed attempts, machines and their days) and the group's
    /// own rows (its info and challenges), read as the owner straight from the tables. With
    /// `changeMark: false` the group's change counters are left out (they move with any member's
    /// own write), and what its last settlement saw (any member's settling moves it).
    func rows(of members: [Member], changeMark: Bool = true) async throws -> [String] {
        let ids = members.map(\.id)
        let code = self.code.value
        // Without the change marks: every number a write moves, and what the last settlement saw.
        let marks = [
            "change_seq", "removed_seq", "games_seq", "settle_seq", "settled_seq", "settled_on",
        ]
        let groupInfo = changeMark ? "to_jsonb(t)" : "to_jsonb(t) - " + marks.map { "'\($0)'" }.joined(separator: " - ")
        return try await PostgresTestServer.withConnection(to: owner) { connection in
            try await connection.query(
                """
                SELECT 'member ' || to_jsonb(t)::text FROM screenmates.member t WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'day_total ' || to_jsonb(t)::text FROM screenmates.day_total t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'challenge_participant ' || to_jsonb(t)::text FROM screenmates.challenge_participant t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'coin_standing ' || to_jsonb(t)::text FROM screenmates.coin_standing t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'week_result ' || to_jsonb(t)::text FROM screenmates.week_result t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'last_group ' || to_jsonb(t)::text FROM screenmates.last_group t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'identity ' || to_jsonb(t)::text FROM screenmates.identity t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'failed_attempt ' || to_jsonb(t)::text FROM screenmates.failed_attempt t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'machine ' || to_jsonb(t)::text FROM screenmates.machine t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'machine_day_total ' || to_jsonb(t)::text FROM screenmates.machine_day_total t
                    WHERE t.user_id = ANY (\(ids))
                UNION ALL SELECT 'group_info ' || (\(unescaped: groupInfo))::text FROM screenmates.group_info t
                    WHERE t.code = \(code)
                UNION ALL SELECT 'group_challenge ' || to_jsonb(t)::text FROM screenmates.group_challenge t
                    WHERE t.code = \(code)
                ORDER BY 1
                """, logger: Self.logger
            ).collect().map { try $0.decode(String.self) }
        }
    }

    /// The victim's own client still works: it reads the group, stores a newer profile and a
    /// day total and reads them back, and sees the challenge, the coins and the rules.
    func expectVictimStillWorks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let store = ana.store
        let members = try await store.members(code: code)
        let stored = try #require(members.first { $0.userID == ana.userID }, sourceLocation: sourceLocation)
        #expect(stored.displayName == ana.profile.displayName, sourceLocation: sourceLocation)
        var next = stored
        next.version += 1
        next.blocksToday += 1
        #expect(try await store.upsertProfile(next), sourceLocation: sourceLocation)
        let version =
            try await store.dayTotals(code: code, days: today...today)
            .first { $0.userID == ana.userID }?.version ?? 0
        try await store.upsertDayTotals(
            [DayTotal(userID: ana.userID, date: today, viceBlocks: 5, goalBlocks: 8, version: version + 1)], code: code)
        let after = try await store.members(code: code).first { $0.userID == ana.userID }
        #expect(after == next, sourceLocation: sourceLocation)
        let days = try await store.dayTotals(code: code, days: today...today).filter { $0.userID == ana.userID }
        #expect(days.map(\.viceBlocks) == [5], sourceLocation: sourceLocation)
        let boards = try await store.groupChallenges(code: code)
        #expect(boards.map(\.challenge.challenge.id).contains(Self.challengeID), sourceLocation: sourceLocation)
        #expect(
            try await store.memberCoins(code: code).first { $0.userID == ana.userID }?.coins == 120,
            sourceLocation: sourceLocation)
        #expect(
            try await store.settlementRules(code: code) == SettlementSchedule(rules: .standard),
            sourceLocation: sourceLocation)
    }

    static let logger = Logger(label: "hostile-tests")
}
