import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The bounds both sides keep — what a client refuses to send and leaves out when it reads
/// (`GroupStoreRules`, `SettlementRules`, `Challenge`, `DisplayName`), and what the server's
/// functions refuse to store — are the same numbers: each is probed on the server at its edges
/// and one step beyond, and must be accepted or refused exactly as the Swift rule says.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresBoundsAgreementTests {
    /// One bound: the Swift rule, and the SQL expression that checks the same value (its
    /// function refuses with SMVAL, or answers false).
    struct Probe: Sendable, CustomStringConvertible {
        var description: String
        var values: [Int64]
        var swift: @Sendable (Int64) -> Bool
        var sql: @Sendable (Int64) -> String
    }

    static func edges(_ range: ClosedRange<Int>) -> [Int64] {
        [Int64(range.lowerBound) - 1, Int64(range.lowerBound), Int64(range.upperBound), Int64(range.upperBound) + 1]
    }

    static func edges(_ range: ClosedRange<Int64>) -> [Int64] {
        [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1]
    }

    /// A day every check of a date takes (members choose their clock on the test store).
    static let day = Int64(LocalDate(year: 2026, month: 11, day: 18)!.dayNumber)

    static let probes: [Probe] = [
        Probe(
            description: "blocks of a day", values: edges(GroupStoreRules.blocksPerDayRange),
            swift: { GroupStoreRules.blocksPerDayRange.contains(Int($0)) },
            sql: { "screenmates.check_profile(\($0), \(day), 0, NULL, 0, 1)" }),
        Probe(
            description: "a machine's productive blocks of a day", values: edges(GroupStoreRules.blocksPerDayRange),
            swift: { GroupStoreRules.blocksPerDayRange.contains(Int($0)) },
            sql: { "screenmates.check_profile(0, \(day), 0, NULL, 0, 1, \($0))" }),
        Probe(
            description: "a streak", values: edges(GroupStoreRules.streakRange),
            swift: { GroupStoreRules.streakRange.contains(Int($0)) },
            sql: { "screenmates.check_profile(0, \(day), \($0), NULL, 0, 1)" }),
        Probe(
            description: "an instant in milliseconds", values: edges(GroupStoreRules.storableMilliseconds),
            swift: { GroupStoreRules.storableMilliseconds.contains($0) },
            sql: { "screenmates.check_profile(0, \(day), 0, NULL, \($0), 1)" }),
        Probe(
            description: "a day number", values: edges(GroupStoreRules.storableDayNumbers),
            swift: { GroupStoreRules.storableDayNumbers.contains(Int($0)) },
            sql: { "screenmates.check_today(\($0))" }),
        Probe(
            description: "a week's first weekday", values: edges(SettlementRules.weekStartRange),
            swift: { SettlementRules.weekStartRange.contains(Int($0)) },
            sql: { "screenmates.check_settlement_rules(\($0)::integer, 5, 10, 'pending')" }),
        Probe(
            description: "a kept day's coins", values: edges(SettlementRules.coinsRange),
            swift: { SettlementRules.coinsRange.contains(Int($0)) },
            sql: { "screenmates.check_settlement_rules(1, \($0), 10, 'pending')" }),
        Probe(
            description: "a day over's coins", values: edges(SettlementRules.coinsRange),
            swift: { SettlementRules.coinsRange.contains(Int($0)) },
            sql: { "screenmates.check_settlement_rules(1, 5, \($0), 'pending')" }),
        Probe(
            description: "a challenge's days", values: edges(Challenge.daysRange),
            swift: { Challenge.daysRange.contains(Int($0)) },
            sql: { "screenmates.check_challenge('abcd', '{\"streak\":{}}', \(day), \($0), 0, 0, NULL)" }),
        Probe(
            description: "a challenge's reward", values: edges(Challenge.coinsRange),
            swift: { Challenge.coinsRange.contains(Int($0)) },
            sql: { "screenmates.check_challenge('abcd', '{\"streak\":{}}', \(day), 7, \($0), 0, NULL)" }),
        Probe(
            description: "a challenge's most blocks a day", values: edges(Challenge.maxBlocksRange),
            swift: { Challenge.maxBlocksRange.contains(Int($0)) },
            sql: {
                "screenmates.check_rule('{\"dailyBlocks\":{\"max\":\($0),\"target\":{\"allVice\":{}}}}')"
            }),
        Probe(
            description: "a rule's length in bytes", values: [2000, 2001, 2064],
            swift: { $0 <= GroupStoreRules.maximumRuleLength },
            sql: { length in
                // The longest rule a client writes names an app (64 characters, here two bytes of
                // UTF-8 each); JSON lets a writer pad it with spaces to any length.
                let rule =
                    "{\"dailyBlocks\":{\"max\":2,\"target\":{\"app\":{\"_0\":\"\(String(repeating: "é", count: 64))\"}}}}"
                let padding = String(repeating: " ", count: Int(length) - rule.utf8.count)
                return "screenmates.check_rule('{\(padding)\(rule.dropFirst())')"
            }),
        Probe(
            description: "a display name's characters",
            values: [0, 1, Int64(DisplayName.maximumLength), Int64(DisplayName.maximumLength) + 1],
            swift: { (try? DisplayName(validating: String(repeating: "é", count: Int($0)))) != nil },
            sql: { "screenmates.name_key(repeat('é', \($0)::integer))" }),
        Probe(
            description: "the weeks one settlement counts", values: [Int64(WeekSettlement.maximumWeeksPerCall)],
            swift: { $0 == WeekSettlement.maximumWeeksPerCall },
            sql: { "screenmates.weeks_per_settlement() = \($0)" }),
    ]

    /// Whether the server takes `expression`: it answers true (or nothing to say), or it refuses.
    static func serverAccepts(_ expression: String, on address: PostgresAddress) async throws -> Bool {
        try await PostgresTestServer.withConnection(to: address) { connection in
            do {
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT coalesce((\(expression))::text, 'accepted')"),
                    logger: Logger(label: "bounds")
                ).collect()
                return try rows.first?.decode(String.self) != "false"
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "SMVAL" {
                return false
            }
        }
    }

    @Test(arguments: probes)
    func theServerKeepsTheBoundTheClientsKeep(_ probe: Probe) async throws {
        let address = try await PostgresTestServer.newPreparedDatabase()
        for value in probe.values {
            let client = probe.swift(value)
            let server = try await Self.serverAccepts(probe.sql(value), on: address)
            #expect(
                server == client,
                "\(probe): \(value) is \(client ? "taken" : "refused") by the clients, \(server ? "taken" : "refused") by the server"
            )
        }
    }

    /// The machines a member may have, and the names and ids a machine may have, are the same on
    /// the server as in the clients and the shared file.
    @Test func theServerHoldsAMemberToTheMachinesTheClientsAllow() async throws {
        let address = try await PostgresTestServer.newPreparedDatabase()
        let policy = try await PostgresTestServer.withConnection(to: address) { connection in
            try await connection.query(
                "SELECT machines_per_member, machines_kept_per_member FROM screenmates.store_policy",
                logger: Logger(label: "bounds")
            ).collect().first?.decode((Int32, Int32).self)
        }
        #expect(policy?.0 == Int32(GroupStoreRules.machinesPerMember))
        #expect(policy?.1 == Int32(GroupStoreRules.machinesKeptPerMember))
        let names = [
            "a", String(repeating: "n", count: MachineName.longest),
            String(repeating: "n", count: MachineName.longest + 1),
            "", "laptop.home_2-b", "two words", "caf\u{E9}", "tab\t", "first",
        ]
        for name in names {
            let client = (try? MachineName(validating: name)) != nil
            let literal = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
            let server = try await Self.serverAccepts("screenmates.check_machine('first', \(literal))", on: address)
            #expect(server == client, "machine name \(name.debugDescription)")
        }
        let ids = [
            String(repeating: "0", count: 32), String(repeating: "f", count: 32), String(repeating: "F", count: 32),
            String(repeating: "a", count: 31), String(repeating: "a", count: 33), String(repeating: "g", count: 32),
        ]
        for id in ids {
            let client = (try? MachineID(validating: id)) != nil
            let server = try await Self.serverAccepts("screenmates.check_machine('\(id)', NULL)", on: address)
            #expect(server == client, "machine id \(id)")
        }
    }
}
