import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The schema's compatibility rule on a real server: each migration records the oldest client
/// version that may still use the schema, and a client refuses only a newer schema that says it
/// is not compatible with it — so adding to the schema never locks out members who have not
/// updated yet.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresSchemaCompatibilityTests {
    private typealias Contract = GroupStoreContract
    private typealias Server = PostgresTestServer

    private static func query<T: PostgresDecodable & Sendable>(
        _ sql: String, _ type: T.Type, on address: PostgresAddress
    )
        async throws -> [T]
    {
        try await Server.withConnection(to: address) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "t")).collect().map {
                try $0.decode(T.self)
            }
        }
    }

    /// A migration's statements go to the server as one `DO` block: each runs, in order, in the
    /// transaction around it, dollar quotes and all, whatever tags the statements use themselves.
    @Test func aMigrationsStatementsRunAsOneBlock() async throws {
        let address = try await Server.newDatabase()
        let statements = [
            "CREATE TABLE batch_test (n integer, note text)",
            "CREATE FUNCTION batch_next() RETURNS integer LANGUAGE sql AS $$ SELECT coalesce(max(n), 0) + 1 FROM batch_test $$",
            "INSERT INTO batch_test VALUES (batch_next(), 'quoted $statement_0$ and $screenmates_migration_0$')",
            "-- a comment\nINSERT INTO batch_test VALUES (batch_next(), $$it's $$)",
        ]
        let batch = PostgresSchemaMigrator.batch(statements)
        #expect(batch.hasPrefix("DO $screenmates_migration_1$"), "\(batch.prefix(40))")
        #expect(batch.contains("EXECUTE $statement_1$"))
        try await Server.withConnection(to: address) { connection in
            let logger = Logger(label: "t")
            _ = try await connection.query("BEGIN", logger: logger).collect()
            _ = try await connection.query(PostgresQuery(unsafeSQL: batch), logger: logger).collect()
            _ = try await connection.query("COMMIT", logger: logger).collect()
        }
        #expect(
            try await Self.query("SELECT n::bigint FROM batch_test ORDER BY n", Int64.self, on: address) == [1, 2])
        #expect(
            try await Self.query("SELECT note FROM batch_test ORDER BY n", String.self, on: address) == [
                "quoted $statement_0$ and $screenmates_migration_0$", "it's ",
            ])
    }

    /// A database an older client set up: the first release's level only.
    private static func firstVersionDatabase() async throws -> PostgresAddress {
        let address = try await Server.newDatabase()
        try await ReleasedSchema.install(upTo: 1, in: address)
        return address
    }

    /// A store that older clients used, upgraded: its members from before are kept (names, day
    /// totals), older clients are told to update (their functions took a user id on trust), and
    /// no member from before is bound to the first login that names it: the owner's own id is
    /// bound at once, anyone else's claim waits for the owner, who sees every claimant.
    @Test func anOlderStoreIsUpgradedAndItsMembersAreBoundOnlyWhenTheOwnerSaysSo() async throws {
        let address = try await Self.firstVersionDatabase()
        let boRole = try await Server.newMemberRole(in: address)
        let mallory = try await Server.newMemberRole(in: address)
        #expect(try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address) == [1])
        // The older clients create a group and join it through their own functions.
        let code = try #require(
            try await Self.query(
                """
                SELECT code FROM screenmates.create_group(8, 'ana23456', 'ana', 'ana', 0, 20775, 0, NULL,
                    1795000000000, 1, 1795000000000)
                """, String.self, on: address
            ).first)
        #expect(
            try await Self.query(
                """
                SELECT outcome FROM screenmates.join_group('\(code)', 'bo234567', 'bo', 'bo', 2, 20775, 9, NULL,
                    1795000000000, 1, 1795000000000)
                """, String.self, on: boRole) == ["found"])
        // This version migrates it and records the level; an older client now reads a version
        // newer than its own, and its functions are gone.
        let owner = PostgresGroupStore(address: address, keyring: Server.keyring)
        try await owner.prepare()
        try await Server.relaxPolicy(of: address)
        #expect(
            try await Self.query(
                "SELECT version::bigint FROM screenmates.schema_migration ORDER BY version", Int64.self, on: address)
                == Array(1...Int64(PostgresGroupSchema.latestVersion)))
        #expect(
            try await Self.query(
                "SELECT version::bigint * 100 + compatible_from FROM screenmates.schema_level()", Int64.self,
                on: address) == [Int64(PostgresGroupSchema.latestVersion) * 100 + 3])
        #expect(try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address) == [3])
        let group = try GroupCode(validating: code)
        // The store's owner is trusted with everything anyway: its own id is bound at once.
        #expect(try await owner.members(code: group).map(\.displayName.value) == ["ana", "bo"])
        // bo's claim waits for the owner (bo keeps his updates meanwhile)…
        let bo = PostgresGroupStore(
            address: boRole, keyring: Server.keyring(salt: "bo's home", reader: Contract.bo.userID))
        var update = Contract.bo
        update.version = 2
        update.blocksToday = 5
        var boFingerprint = ""
        do {
            try await bo.upsertProfile(update)
            Issue.record("a member from before was bound without the owner")
        } catch {
            #expect(error.isTransient, "\(error)")
            #expect(error.message.contains("owner"), "\(error.message)")
            guard case .awaitingApproval(_, _, _, let fingerprint) = error else { throw error }
            boFingerprint = fingerprint
        }
        // …and so does anyone else's claim to bo's id: nothing is done in bo's name, from
        // another login or from bo's own login with another secret (a shared login).
        let thief = PostgresGroupStore(address: mallory, keyring: Server.keyring(salt: "mallory"))
        let sharer = PostgresGroupStore(address: boRole, keyring: Server.keyring(salt: "a sharer of bo's login"))
        var forged = Contract.bo
        forged.version = 9_000_000
        forged.streak = 999
        await #expect(throws: GroupStoreError.self) { try await thief.upsertProfile(forged) }
        await #expect(throws: GroupStoreError.self) { try await sharer.upsertProfile(forged) }
        let claims = try await Self.query(
            "SELECT role_name || ':' || fingerprint || ':' || claimants::text FROM screenmates.pending_claims()",
            String.self, on: address)
        #expect(claims.count == 3 && claims.contains("\(boRole.user):\(boFingerprint):3"), "\(claims)")
        // The owner cannot approve bo's login's claim without saying which of its two secrets…
        #expect(
            try await Self.query(
                "SELECT screenmates.approve_claim('bo234567', '\(boRole.user)')", String.self, on: address)
                == ["ambiguous"])
        // …and approves the one bo's screen showed: bo is in, every other claimant refused for good.
        #expect(
            try await Self.query(
                "SELECT screenmates.approve_claim('bo234567', '\(boRole.user)', '\(boFingerprint)')", String.self,
                on: address) == ["approved"])
        #expect(try await bo.upsertProfile(update))
        await #expect(throws: GroupStoreError.self) { try await sharer.upsertProfile(forged) }
        await Contract.expectError(
            .identityRefused(
                "User id bo234567 belongs to another member of this group store (another login, or another secret). "
                    + "Use the login and the home (its `member-identity` file) this member was made with, "
                    + "or set up a new profile in a new home.")
        ) { try await thief.upsertProfile(forged) }
        let members = try await bo.members(code: group)
        #expect(members.map(\.displayName.value) == ["ana", "bo"])
        #expect(members.last?.blocksToday == 5 && members.last?.streak == 9)
        #expect(
            try await Self.query("SELECT count(*) FROM screenmates.pending_claims()", Int64.self, on: address) == [0])
    }

    /// Every row of the second schema's tables that a member wrote, as JSON without the columns
    /// later schemas added (and without the change counter, which the stamps move), read as the
    /// owner: what an upgrade must keep.
    private static func secondSchemaRows(on address: PostgresAddress) async throws -> [String] {
        let added =
            "ARRAY['seq', 'created_on', 'created_by', 'removed_seq', 'change_seq', 'retained_on', 'games_seq', 'settle_seq', 'settled_seq', 'settled_on']"
        return try await query(
            """
            SELECT tab || ' ' || row FROM (
                SELECT 'group_info' AS tab, (to_jsonb(t) - \(added))::text AS row FROM screenmates.group_info t
                UNION ALL SELECT 'member', (to_jsonb(t) - \(added))::text FROM screenmates.member t
                UNION ALL SELECT 'day_total', (to_jsonb(t) - \(added))::text FROM screenmates.day_total t
                UNION ALL SELECT 'group_challenge', (to_jsonb(t) - \(added))::text FROM screenmates.group_challenge t
                UNION ALL SELECT 'challenge_participant', (to_jsonb(t) - \(added))::text
                    FROM screenmates.challenge_participant t
                UNION ALL SELECT 'coin_standing', (to_jsonb(t) - \(added))::text FROM screenmates.coin_standing t
                UNION ALL SELECT 'week_result', (to_jsonb(t) - \(added))::text FROM screenmates.week_result t
                UNION ALL SELECT 'last_group', to_jsonb(t)::text FROM screenmates.last_group t
            ) rows ORDER BY 1
            """, String.self, on: address)
    }

    /// A store as the release that took user ids on trust left it (the second schema: members,
    /// day totals, a challenge and its participants, coins, settlement rules, settled weeks, a
    /// member who shared a challenge and left), written through that release's own functions by
    /// each member's login, then upgraded: every row is kept; every user id in it — the one that
    /// is left only as a challenge's creator too — is reserved, so an attacker who read the ids
    /// cannot bind one first (each call in its name files a claim, none binds); each member gets
    /// theirs once the owner approves their claim, and sees their own rows.
    @Test func aPopulatedStoreOfTheSecondSchemaIsUpgradedAndEveryIdWaitsForItsOwner() async throws {
        var address = try await Server.newDatabase()
        // Its many calls, some right after the upgrade's locks are let go, run beside the whole
        // suite: each may wait longer for its answer than a member's default five seconds.
        address.timeout = .seconds(30)
        try await ReleasedSchema.install(upTo: 2, in: address)
        let (anaRole, boRole, cyRole) = (
            try await Server.newMemberRole(in: address), try await Server.newMemberRole(in: address),
            try await Server.newMemberRole(in: address)
        )
        let mallory = try await Server.newMemberRole(in: address)
        let today = Int64(try await HostileGroup.serverDay(on: address))
        let (joined, now) = ((today - 20) * 86_400_000, today * 86_400_000 + 43_200_000)
        #expect(try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address) == [1])

        // The release's clients, each on their own login, through their own functions.
        let code = try #require(
            try await Self.query(
                """
                SELECT code FROM screenmates.create_group(8, 'ana23456', 'ana', 'ana', 3, \(today), 4, NULL,
                    \(now), 5, \(joined))
                """, String.self, on: anaRole
            ).first)
        for (role, id, name) in [(boRole, "bo234567", "bo"), (cyRole, "cy234567", "cy")] {
            #expect(
                try await Self.query(
                    """
                    SELECT outcome FROM screenmates.join_group('\(code)', '\(id)', '\(name)', '\(name)', 1, \(today),
                        9, NULL, \(now), 1, \(joined))
                    """, String.self, on: role) == ["found"])
        }
        let writes: [(PostgresAddress, String)] = [
            (
                boRole,
                "SELECT screenmates.upsert_profile('bo234567', 'bo', 'bo', 2, \(today), 9, NULL, \(now), 7)::text"
            ),
            (
                anaRole,
                """
                SELECT screenmates.upsert_day_totals('\(code)', ARRAY['ana23456', 'ana23456', 'bo234567'],
                    ARRAY[\(today - 15), \(today - 1), \(today - 1)]::bigint[], ARRAY[2, 9, 1]::bigint[],
                    ARRAY[8, 8, 8]::bigint[], ARRAY[1, 1, 1]::bigint[])::text
                """
            ),
            (
                cyRole,
                """
                SELECT screenmates.create_group_challenge('\(code)', 'cyweek', 'cy234567', '{"streak":{}}', \(today),
                    7, 40, 20, NULL, \(now))
                """
            ),
            (
                boRole,
                "SELECT outcome FROM screenmates.join_group_challenge('\(code)', 'cyweek', 'bo234567', \(today), \(now))"
            ),
            (boRole, "SELECT screenmates.report_participant('\(code)', 'cyweek', 'bo234567', 'in', 1, NULL)"),
            (anaRole, "SELECT screenmates.report_standing('ana23456', 'ana', 120, 3, true, 1, \(now))::text"),
            (boRole, "SELECT screenmates.report_standing('bo234567', 'bo', 45, 1, false, 1, \(now))::text"),
            (anaRole, "SELECT screenmates.set_settlement_rules('\(code)', 'ana23456', 1, 5, 10, 'worst-case')"),
            (anaRole, "SELECT settled::text FROM screenmates.settle_weeks('\(code)', \(today), \(now))"),
            // cy shared a challenge and left: the challenge stays, with cy as its creator.
            (cyRole, "SELECT screenmates.leave_group('\(code)', 'cy234567')::text"),
        ]
        for (role, sql) in writes {
            #expect(try await Self.query(sql, String.self, on: role).count == 1, "\(sql)")
        }
        let before = try await Self.secondSchemaRows(on: address)
        #expect(before.filter { $0.hasPrefix("week_result ") }.count >= 4, "settled weeks: \(before)")
        #expect(before.contains { $0.hasPrefix("group_challenge ") && $0.contains("\"cy234567\"") })
        #expect(!before.contains { $0.hasPrefix("member ") && $0.contains("\"cy234567\"") })

        // This version upgrades it: every row kept, every id in it reserved, none bound.
        let owner = PostgresGroupStore(address: address, keyring: .none)
        try await owner.prepare()
        try await Server.relaxPolicy(of: address)
        #expect(
            try await Self.query(
                "SELECT max(version)::bigint FROM screenmates.schema_migration", Int64.self, on: address)
                == [Int64(PostgresGroupSchema.latestVersion)])
        #expect(try await Self.secondSchemaRows(on: address) == before)
        #expect(
            try await Self.query("SELECT user_id FROM screenmates.legacy_user ORDER BY 1", String.self, on: address)
                == ["ana23456", "bo234567", "cy234567"])
        #expect(try await Self.query("SELECT count(*) FROM screenmates.identity", Int64.self, on: address) == [0])

        // mallory read every id while they were listed to anyone with the code; each call in one
        // of their names, whatever it does, files a claim and binds nothing.
        let malSecret = Server.secret(for: UserID("mallory"), salt: "mallory").hex
        for id in ["ana23456", "bo234567", "cy234567"] {
            for sql in [
                "SELECT screenmates.upsert_profile('\(id)', '\(malSecret)', 'mal', 0, \(today), 0, NULL, \(now), 99)",
                "SELECT code FROM screenmates.create_group('\(id)', '\(malSecret)', 8, 'mal', 0, \(today), 0, NULL, \(now), 1, \(now))",
                "SELECT * FROM screenmates.my_memberships('\(id)', '\(malSecret)')",
                "SELECT screenmates.delete_account('\(id)', '\(malSecret)')",
            ] {
                #expect(
                    try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: sql), as: mallory) == "SMCLM", "\(sql)"
                )
            }
            #expect(
                try await Self.query(
                    "SELECT screenmates.claim_identity('\(id)', '\(malSecret)')", String.self, on: mallory)
                    == ["waiting"])
        }
        #expect(try await Self.query("SELECT count(*) FROM screenmates.identity", Int64.self, on: address) == [0])
        #expect(try await Self.secondSchemaRows(on: address) == before)

        // Each member's own client files their claim; the owner approves the one whose
        // fingerprint the member's screen showed, and mallory's claims are refused for good.
        var stores: [String: PostgresGroupStore] = [:]
        for (role, id) in [(anaRole, "ana23456"), (boRole, "bo234567"), (cyRole, "cy234567")] {
            let store = PostgresGroupStore(
                address: role, keyring: Server.keyring(salt: "\(id)'s home", reader: UserID(id)))
            do {
                _ = try await store.account(userID: UserID(id))
                Issue.record("\(id) was bound without the owner")
            } catch {
                guard case .awaitingApproval(_, _, let login, let fingerprint) = error else { throw error }
                #expect(login == role.user)
                #expect(
                    try await Self.query(
                        "SELECT screenmates.approve_claim('\(id)', '\(role.user)', '\(fingerprint)')", String.self,
                        on: address) == ["approved"])
            }
            stores[id] = store
        }
        #expect(
            try await Self.query("SELECT count(*) FROM screenmates.pending_claims()", Int64.self, on: address) == [0])
        #expect(try await Self.query("SELECT count(*) FROM screenmates.legacy_user", Int64.self, on: address) == [0])
        let stolen =
            "SELECT screenmates.upsert_profile('bo234567', '\(malSecret)', 'mal', 0, \(today), 0, NULL, \(now), 99)"
        #expect(try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: stolen), as: mallory) == "SMWHO")

        // Each sees their own rows as the release left them.
        let group = try GroupCode(validating: code)
        let ana = try #require(stores["ana23456"])
        let bo = try #require(stores["bo234567"])
        let members = try await bo.members(code: group)
        #expect(members.map(\.displayName.value) == ["ana", "bo"])
        #expect(members.map(\.blocksToday) == [3, 2] && members.map(\.version) == [5, 7])
        let days = LocalDate(dayNumber: Int(today - 15))...LocalDate(dayNumber: Int(today))
        #expect(try await ana.dayTotals(code: group, days: days).map(\.viceBlocks) == [2, 9, 1])
        #expect(try await ana.memberCoins(code: group).map(\.coins) == [120, 45])
        let boards = try await bo.groupChallenges(code: group)
        #expect(boards.map(\.challenge.challenge.id) == ["cyweek"])
        #expect(boards.first?.participants.map(\.daysKept) == [1])
        #expect(try await ana.settlementRules(code: group).latest.missingDays == .worstCase)
        let weeks = try await ana.weekResults(code: group, weeks: days.lowerBound.adding(days: -14)...days.upperBound)
        #expect(weeks.count == before.filter { $0.hasPrefix("week_result ") }.count)
        // cy, in no group since, has his id and can start afresh.
        let cy = try #require(stores["cy234567"])
        #expect(try await cy.account(userID: UserID("cy234567")).memberships.isEmpty)
    }

    @Test func aNewerSchemaThatIsCompatibleIsUsedAndOneThatIsNotIsRefused() async throws {
        let address = try await Server.newPreparedDatabase()
        let store = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
        let group = try await Contract.newGroup(in: store)
        let (later, incompatible) = (PostgresGroupSchema.latestVersion + 1, PostgresGroupSchema.latestVersion + 2)
        try await Server.execute(
            """
            INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
            VALUES (\(later), 'from a later version, compatible with this one', 3)
            """, on: address)
        // A fresh client (no schema checked yet) uses it as it is.
        let compatible = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
        #expect(try await compatible.members(code: group.code) == [Contract.ana])
        #expect(
            try await Self.query(
                "SELECT max(version)::bigint FROM screenmates.schema_migration", Int64.self, on: address)
                == [Int64(later)], "left as it was")
        try await Server.execute(
            """
            INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
            VALUES (\(incompatible), 'from a later version that is not', \(incompatible))
            """, on: address)
        do {
            _ = try await PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring).members(
                code: group.code)
            Issue.record("an incompatible schema was used")
        } catch {
            guard case .unusable(_, let detail) = error else { throw error }
            #expect(detail.contains("newer version"), "\(detail)")
        }
        // The first version's clients are refused by then too: they read its version.
        #expect(
            try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address)
                == [Int64(incompatible)])
    }

    /// A client's day is held to the server's clock: a week that has not ended anywhere on Earth
    /// is not settled, whatever day the client claims.
    @Test func aWeekIsNotClosedBeforeTheServersClockSaysSo() async throws {
        let address = try await Server.newPreparedDatabase()
        let store = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
        let monday = LocalDate(year: 2200, month: 1, day: 6)!
        let group = try await store.createGroup(
            dailyGoalBlocks: 8, creator: Contract.ana, now: Contract.noon(monday))
        try await store.upsertDayTotals(
            (0..<7).map { Contract.day(Contract.ana.userID, monday.adding(days: $0), vice: 1) }, code: group.code)
        let claimed = monday.adding(days: 14)
        #expect(try await store.settleWeeks(code: group.code, today: claimed, now: Contract.noon(claimed)) == 0)
        #expect(try await store.weekResults(code: group.code, weeks: monday...claimed).isEmpty)
    }
}
