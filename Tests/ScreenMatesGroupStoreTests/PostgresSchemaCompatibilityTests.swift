import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
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

    /// A database an older client set up: the first migration only.
    private static func firstVersionDatabase() async throws -> PostgresAddress {
        let address = try await Server.newDatabase()
        try await Server.withConnection(to: address) { connection in
            try await PostgresSchemaMigrator.migrate(
                connection: connection, location: "test", user: address.user, upTo: 1)
        }
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
                == [1, 2, 3, 4])
        #expect(
            try await Self.query(
                "SELECT version::bigint * 100 + compatible_from FROM screenmates.schema_level()", Int64.self,
                on: address) == [403])
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

    @Test func aNewerSchemaThatIsCompatibleIsUsedAndOneThatIsNotIsRefused() async throws {
        let address = try await Server.newPreparedDatabase()
        let store = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
        let group = try await Contract.newGroup(in: store)
        try await Server.execute(
            """
            INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
            VALUES (5, 'from a later version, compatible with this one', 3)
            """, on: address)
        // A fresh client (no schema checked yet) uses it as it is.
        let compatible = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
        #expect(try await compatible.members(code: group.code) == [Contract.ana])
        #expect(
            try await Self.query(
                "SELECT max(version)::bigint FROM screenmates.schema_migration", Int64.self, on: address)
                == [5], "left as it was")
        try await Server.execute(
            """
            INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
            VALUES (6, 'from a later version that is not', 6)
            """, on: address)
        do {
            _ = try await PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring).members(
                code: group.code)
            Issue.record("an incompatible schema was used")
        } catch {
            guard case .unusable(_, let detail) = error else { throw error }
            #expect(detail.contains("newer version"), "\(detail)")
        }
        // The first version's clients are refused by then too: they read 6.
        #expect(try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address) == [6])
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
