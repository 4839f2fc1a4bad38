import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The hostile-member suite, first part: nothing can be done or read in another member's name.
/// On a strict store, eve — a member with a login of her own, or one who shares the victims'
/// login without their secrets — tries each attack of issue 23 as raw SQL through the functions
/// the schema grants. Every one is refused with an error, the victims' rows (read as the owner,
/// straight from the tables) stay exactly as they were, and ana's own client keeps working.
/// One test at a time: each holds the connections of four members' clients.
@Suite(.serialized, .enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresHostileMemberTests {
    /// Who attacks.
    enum Attacker: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// eve, with a login of her own.
        case ownLogin
        /// eve, on the one login the victims share, with her own secret (not theirs).
        case victimsLoginWithoutTheirSecret

        var testDescription: String { rawValue }
    }

    /// One raw call and the SQLSTATE it must be refused with.
    struct Attack {
        let what: String
        let login: PostgresAddress
        let sql: String
        var refusal = "SMWHO"
    }

    @Test(arguments: Attacker.allCases)
    func nothingIsWrittenOrReadInAnotherMembersName(_ attacker: Attacker) async throws {
        let group = try await HostileGroup.make(sharedLogin: attacker == .victimsLoginWithoutTheirSecret)
        let (ana, bo, eve, mal) = (group.ana, group.bo, group.eve, group.mal)
        // A member reads the others' user ids; eve has a group and a challenge of her own to
        // lure ana into.
        let ids = try await eve.store.members(code: group.code).map(\.userID)
        #expect(ids.contains(ana.userID) && ids.contains(bo.userID))
        let eveGroup = try await eve.store.createGroup(dailyGoalBlocks: 8, creator: eve.profile, now: group.now).code
        try await eve.store.createGroupChallenge(
            Challenge(
                id: "evetrap", rule: .dailyBlocks(max: 0, target: .allVice), firstDay: group.today, days: 30,
                reward: 0, penalty: 10_000),
            code: group.code, creatorID: eve.userID, now: group.now)
        let before = try await group.rows(of: [ana, bo])

        let asAna = ana.proof(secret: eve.secret)
        let (code, ms, today) = (group.code.value, group.nowMilliseconds, group.day(0))
        let attacks = [
            Attack(
                what: "renaming ana bo_cheats, streak 999, version 2^63−1", login: eve.login,
                sql: """
                    SELECT screenmates.upsert_profile(\(asAna), 'bo_cheats', 0, \(today), 999, NULL, \(ms),
                        9223372036854775807)
                    """),
            Attack(
                what: "the same with an ordinary version", login: eve.login,
                sql: "SELECT screenmates.upsert_profile(\(asAna), 'bo_cheats', 0, \(today), 999, NULL, \(ms), 2)"),
            Attack(
                what: "ana's day totals, past, today and future", login: eve.login,
                sql: """
                    SELECT screenmates.upsert_day_totals(\(asAna), '\(code)',
                        ARRAY[\(group.day(-30)), \(today), \(group.day(30))]::bigint[], ARRAY[1440, 1440, 1440]::bigint[],
                        ARRAY[1, 1, 1]::bigint[], ARRAY[99, 99, 99]::bigint[])
                    """),
            Attack(
                what: "bo's day totals by a caller in no group", login: mal.login,
                sql: """
                    SELECT screenmates.upsert_day_totals(\(bo.proof(secret: mal.secret)), '\(code)',
                        ARRAY[\(today)]::bigint[], ARRAY[1440]::bigint[], ARRAY[8]::bigint[], ARRAY[99]::bigint[])
                    """),
            Attack(
                what: "leaving the group in ana's name", login: eve.login,
                sql: "SELECT screenmates.leave_group(\(asAna), '\(code)')"),
            Attack(
                what: "forfeiting ana's challenge for her", login: eve.login,
                sql: """
                    SELECT screenmates.report_participant(\(asAna), '\(code)', '\(HostileGroup.challengeID)',
                        'forfeited', 0, \(ms))
                    """),
            Attack(
                what: "joining ana to eve's challenge on a day eve chooses", login: eve.login,
                sql: "SELECT * FROM screenmates.join_group_challenge(\(asAna), '\(code)', 'evetrap', \(today), \(ms))"),
            Attack(
                what: "sharing a challenge in ana's name", login: eve.login,
                sql: """
                    SELECT screenmates.create_group_challenge(\(asAna), '\(code)', 'trap1', '{"streak":{}}', \(today), 7,
                        0, 10000, NULL, \(ms))
                    """),
            Attack(
                what: "harsh settlement rules in ana's name", login: eve.login,
                sql: "SELECT screenmates.set_settlement_rules(\(asAna), '\(code)', 1, 0, 1000, 'worst-case')"),
            Attack(
                what: "a change of the rates in ana's name, backdated", login: eve.login,
                sql: """
                    SELECT * FROM screenmates.change_settlement_rules(\(asAna), '\(code)', 1, 0, 1000, 'worst-case',
                        -9223372036854775808)
                    """),
            Attack(
                what: "the rules and the changes to come, read as ana", login: eve.login,
                sql: "SELECT * FROM screenmates.settlement_schedule(\(asAna), '\(code)')"),
            Attack(
                what: "settling weeks in ana's name", login: eve.login,
                sql: "SELECT * FROM screenmates.settle_weeks(\(asAna), '\(code)', \(group.day(21)), \(ms))"),
            Attack(
                what: "ana's coins, public opt-in and ranking name", login: eve.login,
                sql: "SELECT screenmates.report_standing(\(asAna), 'bo_cheats', 0, 0, false, 9007199254740992, \(ms))"),
            Attack(
                what: "joining ana to eve's own group, to watch her numbers", login: eve.login,
                sql: """
                    SELECT * FROM screenmates.join_group(\(asAna), '\(eveGroup.value)', 'ana', 0, \(today), 0, NULL,
                        \(ms), 1, \(ms))
                    """),
            Attack(
                what: "deleting ana's account", login: eve.login, sql: "SELECT screenmates.delete_account(\(asAna))"),
            Attack(
                what: "claiming ana's id", login: eve.login, sql: "SELECT screenmates.claim_identity(\(asAna))"),
            Attack(
                what: "reading the group as ana", login: eve.login,
                sql: "SELECT * FROM screenmates.group_members(\(asAna), '\(code)')"),
            Attack(
                what: "reading ana's account", login: eve.login,
                sql: "SELECT * FROM screenmates.my_memberships(\(asAna))"),
            Attack(
                what: "reading ana's own day totals", login: eve.login,
                sql: "SELECT * FROM screenmates.my_day_totals(\(asAna), '\(code)')"),
            Attack(
                what: "ana's place in the public ranking", login: eve.login,
                sql: "SELECT * FROM screenmates.public_ranking(\(asAna), 10)"),
            Attack(
                what: "ana's profile with no secret", login: eve.login,
                sql: """
                    SELECT screenmates.upsert_profile('\(ana.id)', NULL, 'bo_cheats', 0, \(today), 999, NULL, \(ms), 2)
                    """,
                refusal: "SMKEY"),
            Attack(
                what: "ana's account with an empty secret", login: eve.login,
                sql: "SELECT screenmates.delete_account('\(ana.id)', '')", refusal: "SMKEY"),
        ]
        for attack in attacks {
            let state = try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: attack.sql), as: attack.login)
            #expect(state == attack.refusal, "\(attack.what): \(state ?? "it went through")")
        }
        #expect(try await group.rows(of: [ana, bo]) == before, "the victims' rows are as they were")
        try await group.expectVictimStillWorks()
    }

    /// A member reads only the groups they are in, and only members settle a group or change its
    /// rules: mal (in no group of theirs) is refused each, naming the group, and nothing moves.
    @Test func aNonMemberReadsNoGroupAndSettlesNone() async throws {
        let group = try await HostileGroup.make()
        let mal = group.mal
        let before = try await group.rows(of: [group.ana, group.bo])
        let (me, code, ms) = (mal.proof(), group.code.value, group.nowMilliseconds)
        let calls = [
            "SELECT * FROM screenmates.group_members(\(me), '\(code)')",
            "SELECT * FROM screenmates.group_day_totals(\(me), '\(code)', \(group.day(-30)), \(group.day(1)))",
            "SELECT * FROM screenmates.group_block_sums(\(me), '\(code)', \(group.day(-30)), \(group.day(1)))",
            "SELECT screenmates.change_mark(\(me), '\(code)')",
            "SELECT screenmates.group_channel(\(me), '\(code)')",
            "SELECT * FROM screenmates.group_challenges(\(me), '\(code)')",
            "SELECT * FROM screenmates.challenge_participants(\(me), '\(code)')",
            "SELECT * FROM screenmates.member_coins(\(me), '\(code)')",
            "SELECT * FROM screenmates.settlement_rules(\(me), '\(code)')",
            "SELECT * FROM screenmates.week_results(\(me), '\(code)', \(group.day(-30)), \(group.day(1)))",
            "SELECT screenmates.set_settlement_rules(\(me), '\(code)', 1, 0, 1000, 'worst-case')",
            "SELECT * FROM screenmates.settlement_schedule(\(me), '\(code)')",
            "SELECT * FROM screenmates.change_settlement_rules(\(me), '\(code)', 1, 0, 1000, 'worst-case', NULL)",
            "SELECT * FROM screenmates.settle_weeks(\(me), '\(code)', \(group.day(0)), \(ms))",
            """
            SELECT screenmates.upsert_day_totals(\(me), '\(code)', ARRAY[\(group.day(0))]::bigint[],
                ARRAY[3]::bigint[], ARRAY[8]::bigint[], ARRAY[1]::bigint[])
            """,
            "SELECT * FROM screenmates.join_group_challenge(\(me), '\(code)', 'anaweek', \(group.day(0)), \(ms))",
            "SELECT screenmates.report_participant(\(me), '\(code)', 'anaweek', 'in', 1, NULL)",
            """
            SELECT screenmates.create_group_challenge(\(me), '\(code)', 'mal1', '{"streak":{}}', \(group.day(0)), 3,
                0, 0, NULL, \(ms))
            """,
        ]
        for sql in calls {
            let state = try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: sql), as: mal.login)
            #expect(state == "SMNOT", "\(sql): \(state ?? "it went through")")
        }
        #expect(try await group.values("SELECT count(*) FROM screenmates.day_total", Int64.self) == [2])
        await GroupStoreContract.expectError(.notAMember(code: group.code)) {
            _ = try await mal.store.members(code: group.code)
        }
        #expect(try await group.rows(of: [group.ana, group.bo]) == before)
    }

    /// Eve sets the harshest rates there are, settles the group's closed weeks and sets the rates
    /// back, as psql would, with a clock of her own for good measure: every closed week is settled
    /// by the rules it started with (ana's days missing, they wait), and a change eve leaves in
    /// place waits for the first week begun nowhere on Earth, where every member's client sees it.
    @Test func aMemberCannotSettleTheOthersWeeksUnderRulesOfTheMoment() async throws {
        let group = try await HostileGroup.make()
        let (ana, eve, code) = (group.ana, group.eve, group.code.value)
        // The group has settled since three weeks ago; nothing of those weeks is settled yet.
        let from = group.day(-21)
        try await PostgresTestServer.execute(
            "UPDATE screenmates.group_info SET settle_from = \(from) WHERE code = '\(code)'",
            "UPDATE screenmates.member SET joined_at = \(Int64(from) * 86_400_000) WHERE code = '\(code)'",
            on: group.owner)
        let past = Int64(from - 7) * 86_400_000
        let me = eve.proof()
        for sql in [
            "SELECT * FROM screenmates.change_settlement_rules(\(me), '\(code)', 1, 0, 1000, 'worst-case', \(past))",
            "SELECT * FROM screenmates.settle_weeks(\(me), '\(code)', \(group.day(0)), \(group.nowMilliseconds))",
            "SELECT screenmates.set_settlement_rules(\(me), '\(code)', 1, 5, 10, 'pending')",
        ] {
            let state = try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: sql), as: eve.login)
            #expect(state == nil, "\(sql): \(state ?? "")")
        }
        let weeks = try await ana.store.weekResults(
            code: group.code, weeks: group.today.adding(days: -28)...group.today)
        let settledNow = weeks.filter { $0.week.dayNumber != group.day(-7) }
        #expect(settledNow.count >= 2 * 3)
        #expect(settledNow.allSatisfy { $0.rule == .pending && $0.coins == 0 }, "\(settledNow)")
        #expect(try await ana.store.settlementRules(code: group.code) == SettlementSchedule(rules: .standard))

        // Left in place, eve's rates wait for the week after the one running at UTC+14.
        let state = try await HostileGroup.sqlState(
            of: PostgresQuery(
                unsafeSQL: "SELECT screenmates.set_settlement_rules(\(me), '\(code)', 1, 0, 1000, 'worst-case')"),
            as: eve.login)
        #expect(state == nil)
        let schedule = try await ana.store.settlementRules(code: group.code)
        let latestDay = try await group.values(
            "SELECT floor((extract(epoch FROM clock_timestamp()) + 50400) / 86400)::bigint", Int64.self)
        let next = SettlementRules.standard.firstDay(ofWeekContaining: LocalDate(dayNumber: Int(latestDay[0])))
            .adding(days: 7)
        #expect(schedule.rules == .standard)
        #expect(schedule.changes.map(\.from) == [next] && schedule.latest.overDayCoins == 1000)
        #expect(schedule.upcoming(after: group.today)?.from == next)
    }

    /// Wrong codes count against the verified caller only: five sent under ana's id (with eve's
    /// secret) are refused and never written down as ana's, and five of eve's own limit eve alone.
    @Test(arguments: Attacker.allCases)
    func wrongCodesInTheVictimsNameDoNotLimitTheVictim(_ attacker: Attacker) async throws {
        let group = try await HostileGroup.make(sharedLogin: attacker == .victimsLoginWithoutTheirSecret)
        let (ana, eve, ms) = (group.ana, group.eve, group.nowMilliseconds)
        for index in 0..<5 {
            let wrong = "ZZZZ\(index + 2)2"
            for sql in [
                "SELECT * FROM screenmates.find_group(\(ana.proof(secret: eve.secret)), '\(wrong)', \(ms))",
                """
                SELECT * FROM screenmates.join_group(\(ana.proof(secret: eve.secret)), '\(wrong)', 'ana', 0,
                    \(group.day(0)), 0, NULL, \(ms), 1, \(ms))
                """,
            ] {
                #expect(try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: sql), as: eve.login) == "SMWHO")
            }
            #expect(
                try await eve.store.group(code: try GroupCode(validating: wrong), userID: eve.userID, now: group.now)
                    == nil)
        }
        #expect(
            try await group.values(
                "SELECT count(*) FROM screenmates.failed_attempt WHERE user_id = '\(ana.id)'", Int64.self)
                == [0])
        do {
            _ = try await eve.store.group(code: GroupStoreContract.unusedCode, userID: eve.userID, now: group.now)
            Issue.record("eve's sixth wrong code was looked up")
        } catch {
            guard case .tooManyAttempts = error else { throw error }
        }
        #expect(try await ana.store.group(code: group.code, userID: ana.userID, now: group.now)?.memberCount == 3)
        #expect(
            try await ana.store.group(code: GroupStoreContract.unusedCode, userID: ana.userID, now: group.now) == nil)
        try await group.expectVictimStillWorks()
    }

    /// With one login for everyone, sixty wrong codes by one member limit that member, not the
    /// login: another member of it still finds, joins and reads groups.
    @Test func sixtyWrongCodesByOneMemberOfASharedLoginLockOutNoOneElse() async throws {
        let group = try await HostileGroup.make(sharedLogin: true)
        let (bo, eve) = (group.bo, group.eve)
        var outcomes: [String] = []
        try await PostgresTestServer.withConnection(to: eve.login) { connection in
            let alphabet = Array(GroupCode.alphabet)
            for index in 0..<60 {
                let wrong = "ZZZZ" + String(alphabet[index / alphabet.count]) + String(alphabet[index % alphabet.count])
                let rows = try await connection.query(
                    "SELECT outcome FROM screenmates.find_group(\(eve.id), \(eve.secret.hex), \(wrong), NULL)",
                    logger: HostileGroup.logger
                ).collect()
                outcomes.append(try rows.first?.decode(String.self) ?? "none")
            }
        }
        #expect(
            outcomes.prefix(5).allSatisfy { $0 == "unknown" } && outcomes.dropFirst(5).allSatisfy { $0 == "limited" })
        #expect(try await bo.store.group(code: group.code, userID: bo.userID, now: group.now)?.memberCount == 3)
        #expect(try await bo.store.group(code: GroupStoreContract.unusedCode, userID: bo.userID, now: group.now) == nil)
        _ = try await group.mal.store.join(code: group.code, member: group.mal.profile, now: group.now)
        #expect(try await group.mal.store.members(code: group.code).count == 4)
        try await group.expectVictimStillWorks()
    }

    /// Leaving a group one is not in answers whether the code names a group; while the caller is
    /// limited it answers nothing, so it cannot be used to try codes past the limit.
    @Test func leavingAGroupOneIsNotInTellsNoMoreThanFindingIt() async throws {
        let group = try await HostileGroup.make()
        let eve = group.eve
        let other = try await group.bo.store.createGroup(dailyGoalBlocks: 8, creator: group.bo.profile, now: group.now)
        try await eve.store.leave(code: other.code, userID: eve.userID)
        for index in 0..<5 {
            let wrong = try GroupCode(validating: "ZZZZ\(index + 2)2")
            #expect(try await eve.store.group(code: wrong, userID: eve.userID, now: group.now) == nil)
        }
        for code in [other.code, GroupStoreContract.unusedCode] {
            let state = try await HostileGroup.sqlState(
                of: "SELECT screenmates.leave_group(\(eve.id), \(eve.secret.hex), \(code.value))", as: eve.login)
            #expect(state == "SMLIM", "leaving \(code) while limited: \(state ?? "answered")")
        }
        #expect(try await group.bo.store.members(code: other.code).map(\.userID) == [group.bo.userID])
    }

    /// Two members on one login, each with a secret of their own: each works, neither can act as
    /// the other (their client holds no other secret; a secret sent for another id is refused).
    @Test func membersSharingOneLoginAreToldApartByTheirSecrets() async throws {
        let group = try await HostileGroup.make(sharedLogin: true)
        let (ana, bo) = (group.ana, group.bo)
        #expect(ana.login.user == bo.login.user)
        let bindings = try await group.values(
            """
            SELECT role_name || ' ' || encode(secret_hash, 'hex') FROM screenmates.identity
            WHERE user_id IN ('\(ana.id)', '\(bo.id)') ORDER BY user_id
            """, String.self)
        #expect(bindings.count == 2 && Set(bindings.map { $0.prefix { $0 != " " } }) == [Substring(ana.login.user)])
        #expect(Set(bindings).count == 2, "one login, two secrets")
        let before = try await group.rows(of: [ana, bo])

        var asBo = bo.profile
        asBo.version = 2
        asBo.displayName = GroupStoreContract.name("bo_cheats")
        await #expect(throws: GroupStoreError.self, "ana's home holds no secret of bo's") {
            try await ana.store.upsertProfile(asBo)
        }
        let borrowed = PostgresGroupStore(address: ana.login, keyring: .single(bo.userID, ana.secret))
        do {
            try await borrowed.upsertProfile(asBo)
            Issue.record("bo's profile was written with ana's secret")
        } catch {
            guard case .identityRefused = error else { throw error }
        }
        for sql in [
            "SELECT screenmates.leave_group(\(bo.proof(secret: ana.secret)), '\(group.code.value)')",
            "SELECT screenmates.delete_account(\(ana.proof(secret: bo.secret)))",
            "SELECT * FROM screenmates.group_members(\(ana.proof(secret: bo.secret)), '\(group.code.value)')",
        ] {
            #expect(try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: sql), as: ana.login) == "SMWHO")
        }
        #expect(try await group.rows(of: [ana, bo]) == before)

        try await group.expectVictimStillWorks()
        var next = bo.profile
        next.version = 2
        next.blocksToday = 6
        #expect(try await bo.store.upsertProfile(next))
        #expect(try await bo.store.members(code: group.code).first { $0.userID == bo.userID } == next)
    }

    /// Deleting an account removes the caller's rows and nobody else's.
    @Test func anAccountIsDeletedOnlyByItsMember() async throws {
        let group = try await HostileGroup.make()
        let before = try await group.rows(of: [group.ana, group.bo], changeMark: false)
        #expect(try await group.eve.store.deleteAccount(userID: group.eve.userID) == 1)
        #expect(try await group.rows(of: [group.ana, group.bo], changeMark: false) == before)
        #expect(try await group.rows(of: [group.eve]).allSatisfy { $0.hasPrefix("group_") })
        #expect(
            try await group.ana.store.members(code: group.code).map(\.userID) == [group.ana.userID, group.bo.userID])
        try await group.expectVictimStillWorks()
    }
}
