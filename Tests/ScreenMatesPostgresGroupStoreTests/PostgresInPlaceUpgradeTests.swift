import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// A store the newest released level's clients use (`ReleasedSchema.newestLevel`) — members, day
/// totals, a challenge and its part, coins, settlement rules, settled and pending weeks, all
/// written through that level's functions by each member's own login — upgraded in place by this
/// version: every row stays, the schema says it serves clients from the third level on, and the
/// members' calls (which this version's client makes as that level's did: the same functions,
/// arguments and answers) go on working on the rows from before.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresInPlaceUpgradeTests {
    private typealias Server = PostgresTestServer

    private static func strings(_ sql: String, as address: PostgresAddress) async throws -> [String] {
        try await Server.withConnection(to: address) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "upgrade")).collect()
                .map { try $0.decode(String.self) }
        }
    }

    /// Every row of the group's tables, read as the owner, without the column the thirteenth
    /// level dropped.
    private static func rows(on address: PostgresAddress) async throws -> [String] {
        try await strings(
            """
            SELECT tab || ' ' || row FROM (
                SELECT 'group_info' AS tab, (to_jsonb(t) - 'retained_on')::text AS row FROM screenmates.group_info t
                UNION ALL SELECT 'member', to_jsonb(t)::text FROM screenmates.member t
                UNION ALL SELECT 'day_total', to_jsonb(t)::text FROM screenmates.day_total t
                UNION ALL SELECT 'group_challenge', to_jsonb(t)::text FROM screenmates.group_challenge t
                UNION ALL SELECT 'challenge_participant', to_jsonb(t)::text FROM screenmates.challenge_participant t
                UNION ALL SELECT 'coin_standing', to_jsonb(t)::text FROM screenmates.coin_standing t
                UNION ALL SELECT 'week_result', to_jsonb(t)::text FROM screenmates.week_result t
                UNION ALL SELECT 'identity', (to_jsonb(t) - 'bound_at')::text FROM screenmates.identity t
            ) rows ORDER BY 1
            """, as: address)
    }

    @Test func aStoreOfTheNewestReleasedLevelIsUpgradedInPlaceAndItsMembersKeepEverything() async throws {
        var address = try await Server.newDatabase()
        address.timeout = .seconds(30)
        try await ReleasedSchema.install(upTo: ReleasedSchema.newestLevel, in: address)
        // That level's policy, relaxed as `Server.relaxPolicy` relaxes the current one.
        try await Server.execute(
            """
            UPDATE screenmates.store_policy SET members_choose_clock = true, running_challenges_per_group = 1000,
                challenges_shared_per_day = 1000
            """, on: address)
        let (anaRole, boRole) = (
            try await Server.newMemberRole(in: address), try await Server.newMemberRole(in: address)
        )
        let (ana, bo) = (UserID("ana23456"), UserID("bo234567"))
        let secret = { (id: UserID) in Server.secret(for: id, salt: "level 12").hex }
        let today = try await HostileGroup.serverDay(on: address) - 1
        let (first, now) = (today - 30, Int64(today) * 86_400_000 + 43_200_000)
        let joined = Int64(first) * 86_400_000

        // That level's clients, each on their own login.
        let code = try #require(
            try await Self.strings(
                """
                SELECT code FROM screenmates.create_group('ana23456', '\(secret(ana))', 8, 'ana', 3, \(today), 4, NULL,
                    \(now), 5, \(joined))
                """, as: anaRole
            ).first)
        let calls: [(PostgresAddress, String)] = [
            (
                boRole,
                """
                SELECT outcome FROM screenmates.join_group('bo234567', '\(secret(bo))', '\(code)', 'bo', 1, \(today), 9,
                    NULL, \(now), 1, \(joined))
                """
            ),
            (
                anaRole,
                """
                SELECT screenmates.set_settlement_rules('ana23456', '\(secret(ana))', '\(code)', 1, 5, 10, 'pending')
                """
            ),
            (
                anaRole,
                """
                SELECT screenmates.upsert_day_totals('ana23456', '\(secret(ana))', '\(code)',
                    ARRAY(SELECT d FROM generate_series(\(first), \(today)) d WHERE d % 5 <> 0)::bigint[],
                    ARRAY(SELECT d % 11 FROM generate_series(\(first), \(today)) d WHERE d % 5 <> 0)::bigint[],
                    ARRAY(SELECT 8 FROM generate_series(\(first), \(today)) d WHERE d % 5 <> 0)::bigint[],
                    ARRAY(SELECT 1 FROM generate_series(\(first), \(today)) d WHERE d % 5 <> 0)::bigint[])::text
                """
            ),
            (
                boRole,
                """
                SELECT screenmates.upsert_day_totals('bo234567', '\(secret(bo))', '\(code)',
                    ARRAY(SELECT generate_series(\(first), \(today)))::bigint[],
                    ARRAY(SELECT 2 FROM generate_series(\(first), \(today)))::bigint[],
                    ARRAY(SELECT 8 FROM generate_series(\(first), \(today)))::bigint[],
                    ARRAY(SELECT 1 FROM generate_series(\(first), \(today)))::bigint[])::text
                """
            ),
            (
                anaRole,
                """
                SELECT settled::text FROM screenmates.settle_weeks('ana23456', '\(secret(ana))', '\(code)', \(today),
                    \(now))
                """
            ),
            (
                anaRole,
                """
                SELECT screenmates.create_group_challenge('ana23456', '\(secret(ana))', '\(code)', 'anaweek',
                    '{"streak":{}}', \(today), 7, 40, 20, NULL, \(now))
                """
            ),
            (
                boRole,
                """
                SELECT outcome FROM screenmates.join_group_challenge('bo234567', '\(secret(bo))', '\(code)', 'anaweek',
                    \(today), \(now))
                """
            ),
            (
                boRole,
                "SELECT screenmates.report_standing('bo234567', '\(secret(bo))', 'bo', 45, 1, false, 1, \(now))::text"
            ),
        ]
        for (role, sql) in calls {
            #expect(try await Self.strings(sql, as: role).count == 1, "\(sql)")
        }
        let before = try await Self.rows(on: address)
        #expect(before.contains { $0.hasPrefix("week_result ") && $0.contains("\"pending\"") }, "a pending week")
        #expect(before.contains { $0.hasPrefix("week_result ") && $0.contains("\"settled\"") }, "a settled week")

        // The owner's client upgrades it; every row stays.
        try await PostgresGroupStore(address: address, keyring: .none).prepare()
        #expect(try await Self.rows(on: address) == before)
        #expect(
            try await Self.strings(
                "SELECT version || ' ' || compatible_from FROM screenmates.schema_level()", as: anaRole)
                == ["\(PostgresGroupSchema.latestVersion) 3"])

        // Every member's rows became their first machine's: one machine each, with their profile,
        // and each day total its own.
        #expect(
            try await Self.strings(
                "SELECT user_id || ' ' || machine_id || ' ' || blocks_today FROM screenmates.machine ORDER BY 1",
                as: address) == ["ana23456 first 3", "bo234567 first 1"])
        #expect(
            try await Self.strings(
                """
                SELECT count(*)::text FROM screenmates.day_total d JOIN screenmates.machine_day_total t
                    ON (t.code, t.user_id, t.date, t.vice_blocks, t.goal_blocks, t.version)
                        = (d.code, d.user_id, d.date, d.vice_blocks, d.goal_blocks, d.version)
                WHERE t.machine_id = 'first'
                """, as: address)
                == ["\(before.filter { $0.hasPrefix("day_total ") }.count)"])

        // The members' calls go on, on the rows from before.
        let group = try GroupCode(validating: code)
        let anaStore = PostgresGroupStore(
            address: anaRole, keyring: .single(ana, try MemberSecret(validating: secret(ana))))
        let boStore = PostgresGroupStore(
            address: boRole, keyring: .single(bo, try MemberSecret(validating: secret(bo))))
        #expect(try await anaStore.members(code: group).map(\.displayName.value) == ["ana", "bo"])
        let days = LocalDate(dayNumber: first)...LocalDate(dayNumber: today)
        #expect(
            try await anaStore.dayTotals(code: group, days: days).count
                == before.filter { $0.hasPrefix("day_total ") }.count)
        let weeks = try await boStore.weekResults(
            code: group, weeks: days.lowerBound.adding(days: -7)...days.upperBound)
        #expect(weeks.count == before.filter { $0.hasPrefix("week_result ") }.count)
        #expect(
            try await boStore.groupChallenges(code: group).first?.participants.count
                == before.filter { $0.hasPrefix("challenge_participant ") }.count)
        let update = MemberProfile(
            userID: bo, displayName: try DisplayName(validating: "bo"), blocksToday: 6,
            day: LocalDate(dayNumber: today),
            streak: 9, lastActive: nil, lastUpdated: Date(timeIntervalSince1970: TimeInterval(now / 1000)), version: 2)
        #expect(try await boStore.upsertProfile(update))
        #expect(try await anaStore.members(code: group).last?.blocksToday == 6)
        // A settlement on the same day finds nothing new to settle.
        #expect(try await anaStore.settleWeeks(code: group, today: LocalDate(dayNumber: today), now: Date()) == 0)

        // bo's second machine, on this version, adds to what his older one still sends.
        let desk = try MachineID(validating: String(repeating: "b", count: 32))
        #expect(
            try await boStore.addMachine(desk, name: MachineName(validating: "desk"), userID: bo, adoptingFirst: false)
                == .added)
        let day = LocalDate(dayNumber: today)
        try await boStore.upsertDayTotals(
            [DayTotal(userID: bo, date: day, viceBlocks: 5, goalBlocks: 8, version: 1)], code: group, machine: desk)
        let older = """
            SELECT screenmates.upsert_day_totals('bo234567', '\(secret(bo))', '\(code)', ARRAY[\(today)]::bigint[],
                ARRAY[3]::bigint[], ARRAY[8]::bigint[], ARRAY[2]::bigint[])::text
            """
        #expect(try await Self.strings(older, as: boRole) == ["true"])
        #expect(try await anaStore.dayTotals(code: group, days: day...day).last?.viceBlocks == 8)
        // ana's home updates and takes her first machine over; her older version is then told to
        // update, and her days stay as they were.
        let laptop = try MachineID(validating: String(repeating: "a", count: 32))
        #expect(
            try await anaStore.addMachine(
                laptop, name: MachineName(validating: "laptop"), userID: ana, adoptingFirst: true) == .adopted)
        let anas = try await boStore.dayTotals(code: group, days: days).filter { $0.userID == ana }
        let olderAna = """
            SELECT screenmates.upsert_day_totals('ana23456', '\(secret(ana))', '\(code)', ARRAY[\(today)]::bigint[],
                ARRAY[3]::bigint[], ARRAY[8]::bigint[], ARRAY[9]::bigint[])::text
            """
        let refusal = try await Server.withConnection(to: anaRole) { connection -> String? in
            do {
                _ = try await connection.query(PostgresQuery(unsafeSQL: olderAna), logger: Logger(label: "t")).collect()
                return nil
            } catch let error as PSQLError {
                return error.serverInfo?[.message]
            }
        }
        #expect(refusal?.contains("update it here") == true)
        #expect(try await boStore.dayTotals(code: group, days: days).filter { $0.userID == ana } == anas)

        // A client of the fifteenth level writes a machine's days and profile as it did, without
        // productive blocks, which stay unsaid; this version's client says them.
        let level15 = [
            """
            SELECT screenmates.upsert_machine_days('bo234567', '\(secret(bo))', '\(desk.value)', '\(code)',
                ARRAY[\(today)]::bigint[], ARRAY[6]::bigint[], ARRAY[8]::bigint[], ARRAY[3]::bigint[])::text
            """,
            """
            SELECT screenmates.upsert_machine_profile('bo234567', '\(secret(bo))', '\(desk.value)', 'bo', 6, \(today),
                9, NULL, \(now), 3)::text
            """,
        ]
        for sql in level15 { #expect(try await Self.strings(sql, as: boRole) == ["true"], "\(sql)") }
        #expect(try await boStore.machines(userID: bo).first { $0.id == desk }?.productiveToday == nil)
        var withProductive = DayTotal(userID: bo, date: day, viceBlocks: 6, goalBlocks: 8, version: 4)
        withProductive.productiveBlocks = 2
        try await boStore.upsertDayTotals([withProductive], code: group, machine: desk)
        #expect(
            try await boStore.machineDayTotals(code: group, userID: bo, days: day...day)
                .first { $0.machine == desk }?.productiveBlocks == 2)
        await anaStore.close()
        await boStore.close()
    }
}
