import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The hostile-member suite, second part: the server refuses what a client would refuse. eve, a
/// member of ana's group on a strict store, sends her own rows with values no client sends —
/// names, counters, versions, rules, days — as raw SQL; each is refused (or, for day totals, left
/// out), quotas and lock timeouts hold, and the victims' rows stay as they were.
/// One test at a time: each holds the connections of four members' clients.
@Suite(.serialized, .enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresHostileValuesTests {
    private typealias Group = HostileGroup

    @Test func namesAClientWouldRefuseAreRefused() async throws {
        let group = try await Group.make()
        let (eve, mal, ms, today) = (group.eve, group.mal, group.nowMilliseconds, Int64(group.day(0)))
        let before = try await group.rows(of: [group.ana, group.bo, eve])
        let names = ["a b", String(repeating: "a", count: 21), "ana\u{1B}[2J", "", "ana\u{7F}", "\u{202E}ana", "ana\n"]
        for name in names {
            try await Group.expectRefused(
                [
                    """
                    SELECT screenmates.upsert_profile(\(eve.id), \(eve.secret.hex), \(name), 0, \(today), 0, NULL,
                        \(ms), 2)
                    """,
                    """
                    SELECT screenmates.report_standing(\(eve.id), \(eve.secret.hex), \(name), 0, 0, true, 2, \(ms))
                    """,
                ], as: eve)
            try await Group.expectRefused(
                [
                    """
                    SELECT * FROM screenmates.join_group(\(mal.id), \(mal.secret.hex), \(group.code.value), \(name),
                        0, \(today), 0, NULL, \(ms), 1, \(ms))
                    """,
                    """
                    SELECT * FROM screenmates.create_group(\(mal.id), \(mal.secret.hex), 8, \(name), 0, \(today), 0,
                        NULL, \(ms), 1, \(ms))
                    """,
                ], as: mal)
        }
        // The name's key is the server's: a second "ana" in any case cannot join or be taken.
        for name in ["ANA", "Ana"] {
            try await Group.expectRefused(
                [
                    """
                    SELECT screenmates.upsert_profile(\(eve.id), \(eve.secret.hex), \(name), 0, \(today), 0, NULL,
                        \(ms), 2)
                    """
                ], as: eve, with: "SMNAM")
            try await Group.expectRefused(
                [
                    """
                    SELECT * FROM screenmates.join_group(\(mal.id), \(mal.secret.hex), \(group.code.value), \(name),
                        0, \(today), 0, NULL, \(ms), 1, \(ms))
                    """
                ], as: mal, with: "SMNAM")
        }
        #expect(try await group.rows(of: [group.ana, group.bo, eve]) == before)
        try await group.expectVictimStillWorks()
    }

    /// The database locale's `[[:alnum:]]` (glibc's, here) takes letter numbers (Ⅻ), circled
    /// letters (Ⓐ) and a combining mark with no letter before it; `DisplayName` refuses all
    /// three, and so does the server.
    @Test func aNameOutsideTheClientsAlphabetIsRefused() async throws {
        let group = try await Group.make()
        let (eve, ms, today) = (group.eve, group.nowMilliseconds, Int64(group.day(0)))
        for (index, name) in ["\u{216B}", "\u{24B6}na", "\u{0345}ana"].enumerated() {
            #expect(throws: (any Error).self) { try DisplayName(validating: name) }
            let version = Int64(index + 2)
            try await Group.expectRefused(
                [
                    """
                    SELECT screenmates.upsert_profile(\(eve.id), \(eve.secret.hex), \(name), 0, \(today), 0,
                        NULL, \(ms), \(version))
                    """
                ], as: eve)
        }
    }

    @Test func countersAndVersionsOutOfRangeAreRefused() async throws {
        let group = try await Group.make()
        let (eve, mal, ms, today) = (group.eve, group.mal, group.nowMilliseconds, group.day(0))
        let code = group.code.value
        _ = try await eve.store.joinGroupChallenge(
            id: Group.challengeID, code: group.code, userID: eve.userID, today: group.today, now: group.now)
        let before = try await group.rows(of: [group.ana, group.bo, eve])
        let (max, min) = (Int64.max, "(-9223372036854775807 - 1)")
        let me = eve.proof()
        try await Group.expectRefused(
            [
                "SELECT screenmates.upsert_profile(\(me), 'eve', \(max), \(today), 0, NULL, \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', -1, \(today), 0, NULL, \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 1441, \(today), 0, NULL, \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), \(max), NULL, \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 36526, NULL, \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 0, NULL, \(ms), \(max))",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 0, NULL, \(ms), 9007199254740993)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 0, NULL, \(ms), \(min))",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 0, \(max), \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 0, NULL, \(min), 2)",
                // The first instants past what every client keeps (GroupStoreRules.storableMilliseconds).
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 0, NULL, 3000000000000000, 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(today), 0, -3000000000000000, \(ms), 2)",
                "SELECT screenmates.report_participant(\(me), '\(code)', 'anaweek', 'failed', 0, 3000000000000000)",
                "SELECT screenmates.report_standing(\(me), 'eve', \(max), 0, true, 2, \(ms))",
                "SELECT screenmates.report_standing(\(me), 'eve', 0, \(max), true, 2, \(ms))",
                "SELECT screenmates.report_standing(\(me), 'eve', 0, 0, true, \(max), \(ms))",
                "SELECT screenmates.report_participant(\(me), '\(code)', 'anaweek', 'in', \(max), NULL)",
                "SELECT screenmates.report_participant(\(me), '\(code)', 'anaweek', 'failed', 0, \(max))",
                "SELECT screenmates.set_settlement_rules(\(me), '\(code)', 1, \(max), 10, 'pending')",
                "SELECT screenmates.set_settlement_rules(\(me), '\(code)', 1, 5, \(max), 'pending')",
                """
                SELECT screenmates.create_group_challenge(\(me), '\(code)', 'big1', '{"streak":{}}', \(today), 3,
                    \(max), 0, NULL, \(ms))
                """,
            ].map { PostgresQuery(unsafeSQL: $0) }, as: eve)
        try await Group.expectRefused(
            [
                PostgresQuery(
                    unsafeSQL: """
                        SELECT * FROM screenmates.create_group(\(mal.proof()), \(max), 'mal', 0, \(today), 0, NULL,
                            \(ms), 1, \(ms))
                        """)
            ], as: mal)
        // Day totals out of range are left out; the call itself goes through.
        for (vice, goal, version) in [
            (max, 8, 1), (-1, 8, 1), (3, max, 1), (3, -1, 1), (3, 97, 1), (3, 8, max), (3, 8, 0),
        ] {
            let sql = """
                SELECT screenmates.upsert_day_totals(\(me), '\(code)', ARRAY[\(today)]::bigint[],
                    ARRAY[\(vice)]::bigint[], ARRAY[\(goal)]::bigint[], ARRAY[\(version)]::bigint[])
                """
            #expect(try await Group.sqlState(of: PostgresQuery(unsafeSQL: sql), as: eve.login) == nil, "\(sql)")
        }
        #expect(try await group.rows(of: [group.ana, group.bo, eve]) == before)
        #expect(
            try await group.ana.store.groupChallenges(code: group.code).first?.participants.map(\.daysKept)
                == [0, 0, 0])
        try await group.expectVictimStillWorks()
    }

    /// The rules the clients judge (`Challenge.problem`), held by the server: what it stores, every
    /// client reads as the same rule it checked.
    @Test func challengeRulesAClientCannotJudgeAreRefused() async throws {
        let group = try await Group.make()
        let eve = group.eve
        let allVice = #"{"allVice":{}}"#
        let refused = [
            #"{"dailyBlocks":{"max":-1,"target":\#(allVice)}}"#,
            #"{"dailyBlocks":{"max":97,"target":\#(allVice)}}"#,
            #"{"dailyBlocks":{"max":1.5,"target":\#(allVice)}}"#,
            #"{"dailyBlocks":{"max":"2","target":\#(allVice)}}"#,
            // jsonb keeps the last of two equal keys, a client's decoder the first.
            #"{"dailyBlocks":{"max":-1,"max":5,"target":\#(allVice)}}"#,
            #"{"dailyBlocks":{"max":5,"target":{"app":{"_0":"\u001b[2J","_0":"com.example"}}}}"#,
            #"{"dailyBlocks":{"max":5,"target":{"app":{"_0":"a\u001b[2J"}}}}"#,
            #"{"dailyBlocks":{"max":5,"target":{"app":{"_0":""}}}}"#,
            #"{"dailyBlocks":"#,
            #"{"dailyBlocks":{"max":5,"target":\#(allVice)}} trailing"#,
            #"{"quietHours":{"from":{"minutes":60},"target":\#(allVice),"until":{"minutes":60}}}"#,
            #"{"quietHours":{"from":{"minutes":60},"target":\#(allVice),"until":{"minutes":60},"until":{"minutes":61}}}"#,
            #"{"quietHours":{"from":{"minutes":1440},"target":\#(allVice),"until":{"minutes":60}}}"#,
            #"{"streak":{},"dailyBlocks":{"max":1,"target":\#(allVice)}}"#,
            #"{"streak":{"days":3}}"#,
            #"{"future":{}}"#,
            "[]",
            "null",
            "",
            String(repeating: " ", count: 1990) + #"{"streak":{}}"#,
        ]
        let accepted = [
            #"{"dailyBlocks":{"max":0,"target":\#(allVice)}}"#,
            #"{"quietHours":{"from":{"minutes":1380},"target":{"app":{"_0":"com.example"}},"until":{"minutes":420}}}"#,
        ]
        let (today, ms) = (group.day(0), group.nowMilliseconds)
        func share(_ id: String, _ rule: String) -> PostgresQuery {
            """
            SELECT screenmates.create_group_challenge(\(eve.id), \(eve.secret.hex), \(group.code.value), \(id),
                \(rule), \(today), 3, 10, 10, NULL, \(ms))
            """
        }
        let before = try await group.rows(of: [group.ana, group.bo])
        try await Group.expectRefused(refused.enumerated().map { share("bad\($0.offset)", $0.element) }, as: eve)
        #expect(try await group.rows(of: [group.ana, group.bo]) == before)
        for (index, rule) in accepted.enumerated() {
            #expect(try await Group.sqlState(of: share("good\(index)", rule), as: eve.login) == nil, "\(rule)")
        }
        // What the victim's client reads is what the server checked: every rule one it can judge.
        let boards = try await group.ana.store.groupChallenges(code: group.code)
        #expect(Set(boards.map(\.challenge.challenge.id)) == ["good0", "good1", Group.challengeID])
        #expect(boards.allSatisfy { $0.challenge.challenge.problem == nil })
        try await group.expectVictimStillWorks()
    }

    /// On a strict store a member's day is held to the server's clock: a profile's day must be
    /// today somewhere on Earth, day totals count from the join day to today, a challenge
    /// begins today or later and is joined on its first day, kept days never outrun it.
    @Test func daysAreHeldToTheServersClock() async throws {
        let group = try await Group.make()
        let (eve, bo, ms, code) = (group.eve, group.bo, group.nowMilliseconds, group.code.value)
        let before = try await group.rows(of: [group.ana, bo])
        let loose = try await group.rows(of: [group.ana, bo], changeMark: false)
        let me = eve.proof()
        // A day kept one wider than the server's window (two days back, one ahead), so a
        // midnight during the test changes nothing.
        try await Group.expectRefused(
            [
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(group.day(-4)), 0, NULL, \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(group.day(3)), 0, NULL, \(ms), 2)",
                "SELECT screenmates.upsert_profile(\(me), 'eve', 0, \(group.day(-400)), 0, NULL, \(ms), 2)",
                "SELECT * FROM screenmates.join_group_challenge(\(me), '\(code)', 'anaweek', \(group.day(-30)), \(ms))",
                "SELECT * FROM screenmates.join_group_challenge(\(me), '\(code)', 'anaweek', \(group.day(30)), \(ms))",
                """
                SELECT screenmates.create_group_challenge(\(me), '\(code)', 'past1', '{"streak":{}}', \(group.day(-10)),
                    3, 0, 0, NULL, \(ms))
                """,
                """
                SELECT screenmates.create_group_challenge(\(me), '\(code)', 'far1', '{"streak":{}}', \(group.day(400)),
                    3, 0, 0, NULL, \(ms))
                """,
            ].map { PostgresQuery(unsafeSQL: $0) }, as: eve)
        // bo, in ana's week-long challenge since today: not finished yet, not five days kept.
        try await Group.expectRefused(
            [
                "SELECT screenmates.report_participant(\(bo.proof()), '\(code)', 'anaweek', 'finished', 1, \(ms))",
                "SELECT screenmates.report_participant(\(bo.proof()), '\(code)', 'anaweek', 'in', 5, NULL)",
            ].map { PostgresQuery(unsafeSQL: $0) }, as: bo)
        #expect(try await group.rows(of: [group.ana, bo]) == before)
        // Day totals from before eve joined or after today are left out; today's is kept.
        let dates = [-400, -5, 4, 400, 0].map { group.day($0) }
        let sql = """
            SELECT screenmates.upsert_day_totals(\(me), '\(code)', ARRAY\(dates)::bigint[], ARRAY[1, 1, 1, 1, 1]::bigint[],
                ARRAY[8, 8, 8, 8, 8]::bigint[], ARRAY[1, 1, 1, 1, 1]::bigint[])
            """
        #expect(try await Group.sqlState(of: PostgresQuery(unsafeSQL: sql), as: eve.login) == nil)
        #expect(
            try await group.values(
                "SELECT date FROM screenmates.day_total WHERE user_id = '\(eve.id)' ORDER BY date", Int64.self)
                == [Int64(group.day(0))])
        #expect(try await group.rows(of: [group.ana, bo], changeMark: false) == loose)
        // A week settles only once it has ended somewhere on Earth (UTC+14) by the server's
        // clock, whatever day a member claims.
        let settle = "SELECT * FROM screenmates.settle_weeks(\(me), '\(code)', \(group.day(60)), NULL)"
        #expect(try await Group.sqlState(of: PostgresQuery(unsafeSQL: settle), as: eve.login) == nil)
        let early = try await group.values(
            """
            SELECT count(*) FROM screenmates.week_result
            WHERE week + 6 >= floor((extract(epoch FROM clock_timestamp()) + 50400) / 86400)
            """, Int64.self)
        #expect(early == [0])
        // Nor does it take away a day total this month or the last by the server's clock. (The
        // week holding the server's today may be settled: on a Sunday from 10:00 UTC it has
        // ended at UTC+14, and its results are booked. Its day totals stay.)
        let dayTotals = { (rows: [String]) in rows.filter { $0.hasPrefix("day_total ") } }
        #expect(dayTotals(try await group.rows(of: [group.ana, bo], changeMark: false)) == dayTotals(loose))
        #expect(!dayTotals(loose).isEmpty)
        #expect(
            try await group.values(
                "SELECT date FROM screenmates.day_total WHERE user_id = '\(eve.id)' ORDER BY date", Int64.self)
                == [Int64(group.day(0))])
        try await group.expectVictimStillWorks()
    }

    /// The days a strict store keeps of a member's day totals, exactly as screenmates-groups(7) says: from
    /// two days before the UTC day they joined (their own day may begin that much earlier) to
    /// the server's UTC tomorrow. A total outside is left out of the batch, the rest stored, and
    /// the call goes through — so a client sending the finished days of its history (those
    /// from before it joined too) counts them sent instead of trying them again forever.
    @Test func dayTotalsAreKeptFromTwoDaysBeforeJoiningToTomorrowAndTheRestLeftOut() async throws {
        let group = try await Group.make()
        let eve = group.eve
        let joined = try #require(
            try await group.values(
                """
                SELECT floor(joined_at / 86400000.0)::bigint FROM screenmates.member
                WHERE user_id = '\(eve.id)' AND code = '\(group.code.value)'
                """, Int64.self
            ).first)
        let today = Int64(group.day(0))
        // The day after tomorrow is kept a day wider, so a midnight during the test changes nothing.
        let dates = [joined - 3, joined - 2, joined, today + 1, today + 3]
        let sql = """
            SELECT screenmates.upsert_day_totals(\(eve.proof()), '\(group.code.value)', ARRAY\(dates)::bigint[],
                ARRAY[1, 2, 3, 4, 5]::bigint[], ARRAY[8, 8, 8, 8, 8]::bigint[], ARRAY[1, 1, 1, 1, 1]::bigint[])
            """
        #expect(try await Group.sqlState(of: PostgresQuery(unsafeSQL: sql), as: eve.login) == nil)
        #expect(
            try await group.values(
                "SELECT date FROM screenmates.day_total WHERE user_id = '\(eve.id)' ORDER BY date", Int64.self)
                == [joined - 2, joined, today + 1])
        // Through the client: the same batch is taken whole (nothing to send again).
        try await eve.store.upsertDayTotals(
            dates.map {
                DayTotal(
                    userID: eve.userID, date: LocalDate(dayNumber: Int($0)), viceBlocks: 6, goalBlocks: 8, version: 2)
            }, code: group.code)
        #expect(
            try await group.values(
                "SELECT vice_blocks FROM screenmates.day_total WHERE user_id = '\(eve.id)' ORDER BY date", Int64.self)
                == [6, 6, 6])
    }

    /// The owner's quotas, set low: a group full at three members, one group created a day, one
    /// challenge running in a group.
    @Test func quotasBoundWhatMembersMakeTheServerKeep() async throws {
        let group = try await Group.make()
        let (eve, mal, ms, today) = (group.eve, group.mal, group.nowMilliseconds, group.day(0))
        try await PostgresTestServer.execute(
            """
            UPDATE screenmates.store_policy SET members_per_group = 3, groups_created_per_day = 1,
                running_challenges_per_group = 1
            """, on: group.owner)
        let before = try await group.rows(of: [group.ana, group.bo])
        try await Group.expectRefused(
            [
                PostgresQuery(
                    unsafeSQL: """
                        SELECT * FROM screenmates.join_group(\(mal.proof()), '\(group.code.value)', 'mal', 0, \(today), 0,
                            NULL, \(ms), 1, \(ms))
                        """)
            ], as: mal, with: "SMQTA")
        await #expect(throws: GroupStoreError.self) {
            _ = try await mal.store.join(code: group.code, member: mal.profile, now: group.now)
        }
        _ = try await mal.store.createGroup(dailyGoalBlocks: 8, creator: mal.profile, now: group.now)
        let create =
            "SELECT code FROM screenmates.create_group(\(mal.proof()), 8, 'mal', 0, \(today), 0, NULL, \(ms), 1, \(ms))"
        try await Group.expectRefused([PostgresQuery(unsafeSQL: create)], as: mal, with: "SMQTA")
        try await Group.expectRefused(
            [
                PostgresQuery(
                    unsafeSQL: """
                        SELECT screenmates.create_group_challenge(\(eve.proof()), '\(group.code.value)', 'more1',
                            '{"streak":{}}', \(today), 3, 0, 0, NULL, \(ms))
                        """)
            ], as: eve, with: "SMQTA")
        #expect(try await group.rows(of: [group.ana, group.bo]) == before)
        #expect(try await group.values("SELECT count(*) FROM screenmates.group_info", Int64.self) == [2])
        try await group.expectVictimStillWorks()
    }

    /// Every function a member's login may call (granted to PUBLIC or to the role itself) runs
    /// with a lock timeout of its own, so no lock someone holds can keep a member's call waiting
    /// past it: read from the catalog (pg_proc.proconfig), not from the migrations' text.
    @Test func everyFunctionAMemberMayCallHasALockTimeout() async throws {
        let owner = try await PostgresTestServer.newDatabase()
        try await PostgresGroupStore(address: owner, keyring: .none).prepare()
        let member = try await PostgresTestServer.newMemberRole(in: owner)
        let rows = try await PostgresTestServer.withConnection(to: owner) { connection in
            try await connection.query(
                """
                SELECT p.proname::text,
                    coalesce((SELECT c FROM unnest(p.proconfig) c WHERE c LIKE 'lock_timeout=%'), 'none')
                FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                WHERE n.nspname = 'screenmates' AND has_function_privilege(\(member.user)::name, p.oid, 'EXECUTE')
                ORDER BY 1
                """, logger: Group.logger
            ).collect().map { try $0.decode((String, String).self) }
        }
        #expect(rows.count >= 37, "the functions members call: \(rows.map(\.0))")
        #expect(rows.contains { $0.0 == "schema_level" } && rows.contains { $0.0 == "upsert_profile" })
        let without = rows.filter { $0.1 != "lock_timeout=2s" }
        #expect(without.isEmpty, "without a 2 s lock timeout: \(without)")
    }

    /// eve leaves, and holds her transaction open (psql: BEGIN; SELECT leave_group(…)): the
    /// others still read everything their clients read (a read that waited for the group's row
    /// would fail after the lock timeout, not merely come late), and a write that needs the row
    /// gets an error within the functions' lock timeout (2 s) — generously bounded here — that
    /// says the group is busy, not out of reach; once she lets go, writes go through.
    @Test(.timeLimit(.minutes(2)))
    func anOpenTransactionAfterLeavingHoldsNoOneUp() async throws {
        let group = try await Group.make()
        let (ana, bo, eve) = (group.ana, group.bo, group.eve)
        try await PostgresTestServer.withConnection(to: eve.login) { connection in
            _ = try await connection.query("BEGIN", logger: Group.logger)
            _ = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT screenmates.leave_group(\(eve.proof()), '\(group.code.value)')"),
                logger: Group.logger
            ).collect()
            let (code, today) = (group.code, group.today)
            #expect(try await ana.store.members(code: code).count == 3)
            #expect(try await bo.store.dayTotals(code: code, days: today...today).count == 2)
            let marks = try await ana.store.changeMarks(code: code)
            let changes = try await ana.store.readChanges(
                code: code, after: marks.mark - 1, weekDays: today...today, monthDays: today...today)
            #expect(changes.marks == marks)
            #expect(try await ana.store.blockSums(code: code, days: today...today).count == 2)
            #expect(try await ana.store.groupChallenges(code: code).count == 1)
            #expect(try await ana.store.memberCoins(code: code).count == 2)
            #expect(try await ana.store.settlementRules(code: code) == SettlementSchedule(rules: .standard))
            #expect(try await ana.store.weekResults(code: code, weeks: today.adding(days: -7)...today).count == 2)
            #expect(try await ana.store.account(userID: ana.userID).memberships.count == 1)
            var next = ana.profile
            next.version = 2
            let started = ContinuousClock.now
            do throws(GroupStoreError) {
                try await ana.store.upsertProfile(next)
                Issue.record("a write went through a group held by an open transaction")
            } catch {
                guard case .busy = error else {
                    Issue.record("a held group said as \(error)")
                    throw error
                }
                #expect(error.isTransient, "\(error)")
                #expect(error.message.contains("is busy") && error.message.contains("lock timeout"), "\(error.message)")
                #expect(!error.message.contains("cannot be reached"), "\(error.message)")
            }
            #expect(ContinuousClock.now - started < .seconds(30), "an error, not a hang")
            let state = try await Group.sqlState(
                of: PostgresQuery(
                    unsafeSQL: """
                        SELECT screenmates.upsert_day_totals(\(bo.proof()), '\(group.code.value)',
                            ARRAY[\(group.day(0))]::bigint[], ARRAY[3]::bigint[], ARRAY[8]::bigint[], ARRAY[2]::bigint[])
                        """), as: bo.login)
            #expect(state == "55P03", "lock_not_available, got \(state ?? "none")")
            _ = try await connection.query("ROLLBACK", logger: Group.logger)
        }
        try await group.expectVictimStillWorks()
    }
}
