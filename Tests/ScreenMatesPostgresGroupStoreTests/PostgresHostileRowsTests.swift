import Foundation
import PostgresNIO
import PropertyBased
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesPostgresGroupStore

/// Random and extreme rows planted in a real PostgreSQL group store past every check it makes (as
/// a server whose checks were taken away, or a store's owner gone rogue, could hold them), then
/// read back as a client reads them (`HostileRowsCheck`): nothing traps, the rows that cannot be
/// right are left out and named, the right ones still come through.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresHostileRowsTests {
    private typealias Contract = GroupStoreContract
    private typealias Server = PostgresTestServer

    @Test func nothingAStoreHoldsCrashesOrPoisonsAClient() async throws {
        let address = try await Server.newPreparedDatabase()
        // A group per case, in one database: the quotas on groups are raised for it.
        try await Server.execute(
            "UPDATE screenmates.store_policy SET groups_per_member = 1000, groups_created_per_day = 1000",
            on: address)
        try await Self.dropChecks(address)
        let columnTypes = try await Self.columnTypes(address)
        let store = PostgresGroupStore(address: address, keyring: Server.keyring)
        await propertyCheck(count: 40, input: Gen.int(in: 0...16), Gen.uint64()) { count, seed in
            // Coins are kept per user, not per group: a case's planted users start with none.
            try await Server.execute("DELETE FROM screenmates.coin_standing", on: address)
            let group = try await Contract.newGroup(in: store)
            _ = try await store.join(code: group.code, member: Contract.bo, now: Contract.start)
            try await store.createGroupChallenge(
                Contract.challenge(HostileRows.challengeID), code: group.code, creatorID: Contract.ana.userID,
                now: Contract.start)
            let rows = HostileRows.generate(count: count, today: Contract.today, looseTypes: false, seed: seed)
            let planted = try await Self.plant(rows, code: group.code, types: columnTypes, address: address)
            try await HostileRowsCheck.expectReadersHold(store, group: group, planted: planted, today: Contract.today)
        }
    }

    /// Changes of the rates a store holds past its checks (an owner gone rogue): each that cannot
    /// be right is left out and named, the weeks keep the rules before it, and the right one still
    /// comes through and settles its week.
    @Test func aChangeOfTheRatesThatCannotBeRightIsLeftOut() async throws {
        let address = try await Server.newPreparedDatabase()
        try await Self.dropChecks(address)
        let store = PostgresGroupStore(address: address, keyring: Server.keyring)
        let group = try await Contract.settlingGroup(in: store)
        let (code, nextWeek) = (group.code.value, Contract.monday.adding(days: 7))
        try await Server.execute(
            """
            INSERT INTO screenmates.rules_change (code, from_day, kept_day_coins, over_day_coins, missing_days) VALUES
                ('\(code)', 9223372036854775807, 0, 1000, 'worst-case'),
                ('\(code)', \(nextWeek.dayNumber - 1), -1, 1000, 'worst-case'),
                ('\(code)', \(nextWeek.dayNumber - 2), 0, 9223372036854775807, 'never'),
                ('\(code)', \(nextWeek.dayNumber), 9, 10, 'pending')
            """, on: address)
        let (schedule, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.settlementRules(code: group.code)
        }
        var nine = SettlementRules.standard
        nine.keptDayCoins = 9
        #expect(schedule == SettlementSchedule(rules: .standard, changes: [.init(from: nextWeek, rules: nine)]))
        #expect(leftOut.map(\.kind) == [.rulesChange, .rulesChange, .rulesChange], "\(leftOut)")
        let days = (0..<14).map { Contract.monday.adding(days: $0) }
        try await store.upsertDayTotals(days.map { Contract.day(Contract.ana.userID, $0, vice: 1) }, code: group.code)
        let closing = Contract.monday.adding(days: 14)
        try await store.settleWeeks(code: group.code, today: closing, now: Contract.noon(closing))
        let ana = try await store.weekResults(code: group.code, weeks: Contract.monday...nextWeek).filter {
            $0.userID == Contract.ana.userID
        }
        #expect(ana.map(\.coins) == [7 * 5, 7 * 9])
    }

    /// Takes away every CHECK constraint of the schema's tables (keys and references stay): what
    /// a store no longer checking its rows holds.
    static func dropChecks(_ address: PostgresAddress) async throws {
        let constraints = try await Server.withConnection(to: address) { connection in
            try await connection.query(
                """
                SELECT c.conrelid::regclass::text, c.conname::text FROM pg_constraint c
                JOIN pg_namespace n ON n.oid = c.connamespace
                WHERE n.nspname = 'screenmates' AND c.contype = 'c'
                """, logger: Logger(label: "t")
            ).collect().map { try $0.decode((String, String).self) }
        }
        for (table, name) in constraints {
            try await Server.execute("ALTER TABLE \(table) DROP CONSTRAINT \"\(name)\"", on: address)
        }
    }

    /// Each table's columns with their types, for casting planted text into them.
    static func columnTypes(_ address: PostgresAddress) async throws -> [String: String] {
        try await Server.withConnection(to: address) { connection in
            let rows = try await connection.query(
                """
                SELECT table_name::text || '.' || column_name::text, data_type::text FROM information_schema.columns
                WHERE table_schema = 'screenmates'
                """, logger: Logger(label: "t")
            ).collect()
            return Dictionary(
                try rows.map { try $0.decode((String, String).self) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Writes each row as it is, every value bound as text and cast to its column's type; a row
    /// the server cannot hold at all (a number too large for its column, a duplicate key, a
    /// member it names who is not there) is not planted and not returned.
    static func plant(
        _ rows: [HostileRow], code: GroupCode, types: [String: String], address: PostgresAddress
    ) async throws -> [HostileRow] {
        try await Server.withConnection(to: address) { connection in
            var planted: [HostileRow] = []
            for row in rows {
                var bindings = PostgresBindings()
                bindings.append(code.value)
                var casts: [String] = []
                for (index, column) in row.columns.enumerated() {
                    let type = types["\(row.table.rawValue).\(column.name)"] ?? "text"
                    switch column.value {
                    case .integer(let number): bindings.append(String(number))
                    case .text(let text): bindings.append(text)
                    case .real(let number): bindings.append(String(number))
                    case .null: bindings.appendNull()
                    }
                    casts.append("$\(index + 2)::text::\(type)")
                }
                let names = row.columns.map(\.name)
                let sql: String
                switch row.table {
                case .settlementRules:
                    let assignments = zip(names, casts).map { "\($0) = \($1)" }.joined(separator: ", ")
                    sql = "UPDATE screenmates.group_info SET \(assignments) WHERE code = $1"
                case .coins:
                    // coin_standing has no code: the first binding goes unused, cast away.
                    sql = """
                        INSERT INTO screenmates.coin_standing (\(names.joined(separator: ", ")))
                        SELECT \(casts.joined(separator: ", ")) WHERE $1::text IS NOT NULL
                        """
                default:
                    sql = """
                        INSERT INTO screenmates.\(row.table.rawValue) (code, \(names.joined(separator: ", ")))
                        VALUES ($1, \(casts.joined(separator: ", ")))
                        """
                }
                do {
                    _ = try await connection.query(
                        PostgresQuery(unsafeSQL: sql, binds: bindings), logger: Logger(label: "t")
                    ).collect()
                    planted.append(row)
                } catch is PSQLError {
                    continue
                }
            }
            return planted
        }
    }
}
