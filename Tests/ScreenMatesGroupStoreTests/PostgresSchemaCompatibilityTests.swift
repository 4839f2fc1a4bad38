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

    @Test func anOlderClientsSchemaIsUpgradedAndStillServesIt() async throws {
        let address = try await Self.firstVersionDatabase()
        // What the first version's client asks for the version, and finds equal to its own.
        #expect(try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address) == [1])
        // The older client creates a group through its own functions (a store of this version
        // would migrate first).
        let code = try #require(
            try await Self.query(
                """
                SELECT code FROM screenmates.create_group(8, 'ana23456', 'ana', 'ana', 0, 20775, 0, NULL,
                    1795000000000, 1, 1795000000000)
                """, String.self, on: address
            ).first)
        // This version migrates it, and records the level.
        let store = PostgresGroupStore(address: address)
        try await store.prepare()
        #expect(
            try await Self.query(
                "SELECT version::bigint FROM screenmates.schema_migration ORDER BY version", Int64.self, on: address)
                == [1, 2])
        #expect(
            try await Self.query(
                "SELECT version::bigint * 100 + compatible_from FROM screenmates.schema_level()", Int64.self,
                on: address) == [201])
        // The first version's client still reads 1, so it keeps using the schema: its functions
        // work as before, beside the new ones.
        #expect(try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address) == [1])
        #expect(
            try await Self.query(
                """
                SELECT outcome FROM screenmates.join_group('\(code)', 'bo234567', 'bo', 'bo', 0, 20775, 0, NULL,
                    1795000000000, 1, 1795000000000)
                """, String.self, on: address) == ["found"])
        let group = try GroupCode(validating: code)
        #expect(try await store.members(code: group).map(\.displayName.value) == ["ana", "bo"])
        #expect(try await store.settlementRules(code: group) == .standard)
        // A group from before the settlement begins settling on the day it came, not before.
        let settleFrom = try await Self.query(
            "SELECT settle_from FROM screenmates.group_info", Int64.self, on: address)
        #expect(settleFrom.count == 1 && settleFrom[0] > LocalDate(year: 2026, month: 1, day: 1)!.dayNumber)
    }

    @Test func aNewerSchemaThatIsCompatibleIsUsedAndOneThatIsNotIsRefused() async throws {
        let address = try await Server.newDatabase()
        let store = PostgresGroupStore(address: address)
        let group = try await Contract.newGroup(in: store)
        try await Server.execute(
            """
            INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
            VALUES (3, 'from a later version, compatible with this one', 2)
            """, on: address)
        // A fresh client (no schema checked yet) uses it as it is.
        let compatible = PostgresGroupStore(address: address)
        #expect(try await compatible.members(code: group.code) == [Contract.ana])
        #expect(
            try await Self.query(
                "SELECT max(version)::bigint FROM screenmates.schema_migration", Int64.self, on: address)
                == [3], "left as it was")
        try await Server.execute(
            """
            INSERT INTO screenmates.schema_migration (version, summary, compatible_from)
            VALUES (4, 'from a later version that is not', 4)
            """, on: address)
        do {
            _ = try await PostgresGroupStore(address: address).members(code: group.code)
            Issue.record("an incompatible schema was used")
        } catch {
            guard case .unusable(_, let detail) = error else { throw error }
            #expect(detail.contains("newer version"), "\(detail)")
        }
        // The first version's clients are refused by then too: they read 4.
        #expect(try await Self.query("SELECT screenmates.schema_version()::bigint", Int64.self, on: address) == [4])
    }

    /// A client's day is held to the server's clock: a week that has not ended anywhere on Earth
    /// is not settled, whatever day the client claims.
    @Test func aWeekIsNotClosedBeforeTheServersClockSaysSo() async throws {
        let address = try await Server.newDatabase()
        let store = PostgresGroupStore(address: address)
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
