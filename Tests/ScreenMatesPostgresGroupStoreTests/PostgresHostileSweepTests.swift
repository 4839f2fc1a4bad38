import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The hostile-member suite, third part: every function the schema grants, called with extreme
/// arguments. Each argument of each function in turn takes each extreme value of its type
/// (NULL, empty and 10,000-character text, control characters, malformed JSON, the victims' id
/// and code, 2^63−1 and −2^63, huge and multi-dimensional arrays), the others an ordinary value,
/// so every call reaches past the checks before it. Each call is refused with one of the
/// schema's own errors (class SM) or goes through, and afterwards every row that is not the
/// caller's own is as it was.
/// One test at a time: each holds the connections of four members' clients.
@Suite(.serialized, .enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresHostileSweepTests {
    /// A granted function: its name, and its arguments' names and types.
    struct Function {
        let name: String
        let arguments: [(name: String, type: String)]
    }

    /// On the default strict store, and on one whose members choose their clock (where the
    /// instants a member sends are taken as they are).
    @Test(arguments: [false, true])
    func everyGrantedFunctionWithExtremeArgumentsChangesOnlyTheCallersRows(membersChooseTheirClock: Bool)
        async throws
    {
        let group = try await HostileGroup.make()
        if membersChooseTheirClock {
            try await PostgresTestServer.execute(
                "UPDATE screenmates.store_policy SET members_choose_clock = true", on: group.owner)
        }
        let mal = group.mal
        // mal's own group and challenge: the ordinary code and id, so calls get past them.
        let own = try await mal.store.createGroup(dailyGoalBlocks: 8, creator: mal.profile, now: group.now).code
        try await mal.store.createGroupChallenge(
            Challenge(
                id: "malweek", rule: .streak, firstDay: group.today, days: 7, reward: 10, penalty: 10),
            code: own, creatorID: mal.userID, now: group.now)
        // mal's own machine, so calls that name one get past it.
        let machine = try MachineID(validating: String(repeating: "9", count: 32))
        try await mal.store.addMachine(
            machine, name: MachineName(validating: "malbox"), userID: mal.userID, adoptingFirst: false)
        let functions = try await Self.grantedFunctions(group)
        #expect(functions.count >= 29 && functions.contains { $0.name == "upsert_profile" })

        let (today, ms) = (group.day(0), group.nowMilliseconds)
        let ordinary: [String: String] = [
            "p_user": "'\(mal.id)'", "p_secret": "'\(mal.secret.hex)'", "p_code": "'\(own.value)'",
            "p_goal": "8", "p_name": "'mal'", "p_blocks": "0", "p_day": "\(today)", "p_streak": "0",
            "p_last_active": "\(ms)", "p_last_updated": "\(ms)", "p_version": "2", "p_now": "\(ms)",
            "p_id": "'malweek'", "p_rule": #"'{"streak":{}}'"#, "p_first_day": "\(today)", "p_days": "3",
            "p_reward": "10", "p_penalty": "10", "p_starts_at": "NULL", "p_today": "\(today)", "p_state": "'in'",
            "p_decided_at": "NULL", "p_first": "\(today - 7)", "p_last": "\(today)", "p_limit": "10", "p_after": "0",
            "p_week_first": "\(today - 7)", "p_week_last": "\(today)", "p_month_first": "\(today - 30)",
            "p_month_last": "\(today)",
            "p_coins": "5", "p_badges": "0", "p_public": "true", "p_week_start": "1", "p_kept": "10",
            "p_over": "10", "p_missing": "'pending'", "p_dates": "ARRAY[\(today)]::bigint[]",
            "p_vice": "ARRAY[1]::bigint[]", "p_goals": "ARRAY[8]::bigint[]", "p_versions": "ARRAY[1]::bigint[]",
            "p_machine": "'\(machine.value)'", "p_adopt": "false", "p_productive": "ARRAY[0]::bigint[]",
            "p_productive_today": "0",
        ]
        let extremes: [String: [String]] = [
            "text": [
                "NULL", "''", "repeat('x', 10000)", "chr(1) || chr(27) || '[2J' || chr(127)",
                #"'{"dailyBlocks":'"#, "'\(group.ana.id)'", "'\(group.code.value)'", "'a b'",
                "'''; DROP TABLE screenmates.member; --'", "repeat('é', 10000)",
            ],
            "bigint": ["NULL", "0", "-1", "9223372036854775807", "(-9223372036854775807 - 1)"],
            "integer": ["NULL", "0", "2147483647", "(-2147483647 - 1)"],
            "boolean": ["NULL"],
            "bigint[]": [
                "NULL", "'{}'::bigint[]", "'{NULL}'::bigint[]", "ARRAY[9223372036854775807]",
                "ARRAY[-9223372036854775807 - 1]", "array_fill(9223372036854775807::bigint, ARRAY[100000])",
                "array_fill(\(today)::bigint, ARRAY[100, 100])",
            ],
        ]
        var calls: [String] = []
        for function in functions {
            if function.arguments.isEmpty { calls.append("SELECT * FROM screenmates.\(function.name)()") }
            for (index, argument) in function.arguments.enumerated() {
                guard let values = extremes[argument.type] else {
                    Issue.record("no extreme values for type \(argument.type) (\(function.name).\(argument.name))")
                    continue
                }
                guard function.arguments.allSatisfy({ ordinary[$0.name] != nil }) else {
                    Issue.record("no ordinary value for an argument of \(function.name): add one")
                    break
                }
                for value in values {
                    var arguments = function.arguments.map { ordinary[$0.name]! }
                    arguments[index] = value
                    calls.append("SELECT * FROM screenmates.\(function.name)(\(arguments.joined(separator: ", ")))")
                }
            }
        }

        let before = try await Self.everyRow(group)
        var unclean: [String] = []
        var wentThrough = 0
        try await PostgresTestServer.withConnection(to: mal.login) { connection in
            for call in calls {
                switch try await HostileGroup.sqlState(of: PostgresQuery(unsafeSQL: call), on: connection) {
                case nil: wentThrough += 1
                case let state? where state.hasPrefix("SM"): break
                case let state?: unclean.append("\(state): \(call.prefix(300))")
                }
            }
        }
        let after = try await Self.everyRow(group)

        #expect(
            unclean.isEmpty, "refused with errors that are not the schema's own:\n\(unclean.joined(separator: "\n"))")
        #expect(wentThrough > 0 && wentThrough < calls.count)
        // Whose rows are mal's: the ids bound to her login (and to no other login before: an id
        // taken over is not hers), and the groups they created.
        func ids(_ rows: [Row], mine: Bool) -> Set<String> {
            Set(
                rows.filter { $0.table == "identity" && ($0.row["role_name"] as? String == mal.login.user) == mine }
                    .compactMap { $0.row["user_id"] as? String })
        }
        let ids = ids(before + after, mine: true).subtracting(ids(before, mine: false))
        let groups = Set(
            (before + after).filter { $0.table == "group_info" && ids.contains($0.row["created_by"] as? String ?? "") }
                .compactMap { $0.row["code"] as? String })
        #expect(ids.contains(mal.id) && groups.contains(own.value))
        func others(_ rows: [Row]) -> [String] {
            rows.filter { row in
                if let user = row.row["user_id"] as? String { return !ids.contains(user) }
                if let code = row.row["code"] as? String { return !groups.contains(code) }
                return true
            }.map(\.text).sorted()
        }
        let changed = Set(others(before)).symmetricDifference(others(after))
        #expect(changed.isEmpty, "rows not mal's changed:\n\(changed.sorted().joined(separator: "\n"))")
        #expect(others(before).count == others(after).count)
        try await group.expectVictimStillWorks()
    }

    /// Every function of the schema that `PUBLIC` may execute, with its arguments.
    static func grantedFunctions(_ group: HostileGroup) async throws -> [Function] {
        let rows = try await group.values(
            """
            SELECT DISTINCT p.proname || '|' || coalesce(array_to_string(p.proargnames[1:p.pronargs], ','), '') || '|'
                || coalesce(array_to_string(ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t), ','), '')
            FROM information_schema.routine_privileges r
            JOIN pg_proc p ON r.specific_name = p.proname || '_' || p.oid
            WHERE r.specific_schema = 'screenmates' AND r.grantee = 'PUBLIC' AND r.privilege_type = 'EXECUTE'
            """, String.self)
        return rows.sorted().map { line in
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let names = parts[1].split(separator: ",").map(String.init)
            let types = parts[2].split(separator: ",").map(String.init)
            return Function(name: parts[0], arguments: Array(zip(names, types)).map { (name: $0.0, type: $0.1) })
        }
    }

    /// One row of a table, as JSON.
    struct Row {
        let table: String
        let text: String
        let row: [String: Any]
    }

    /// Every row of every table of the schema, read as the owner.
    static func everyRow(_ group: HostileGroup) async throws -> [Row] {
        let tables = try await group.values(
            """
            SELECT table_name::text FROM information_schema.tables
            WHERE table_schema = 'screenmates' AND table_type = 'BASE TABLE' ORDER BY 1
            """, String.self)
        var rows: [Row] = []
        for table in tables {
            for text in try await group.values("SELECT to_jsonb(t)::text FROM screenmates.\(table) t", String.self) {
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
                rows.append(Row(table: table, text: table + " " + text, row: object))
            }
        }
        return rows
    }
}
