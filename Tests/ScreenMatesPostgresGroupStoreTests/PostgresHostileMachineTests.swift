import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The hostile suite for a member's machines, as raw SQL through the granted functions: no one
/// adds, renames, removes, reads or writes for another member's machine; a member cannot inflate
/// or hide usage by inventing machines; values no client would send are refused or left out; and
/// two machines of one member writing at once add up exactly, without a deadlock.
@Suite(.serialized, .enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresHostileMachineTests {
    private static let laptop = try! MachineID(validating: String(repeating: "a", count: 32))
    private static let desk = try! MachineID(validating: String(repeating: "b", count: 32))

    @Test func noOneWritesReadsOrChangesAnotherMembersMachine() async throws {
        let group = try await HostileGroup.make()
        let (ana, bo, eve) = (group.ana, group.bo, group.eve)
        try await ana.store.addMachine(
            Self.laptop, name: MachineName(validating: "laptop"), userID: ana.userID, adoptingFirst: false)
        try await ana.store.upsertDayTotals(
            [
                DayTotal(
                    userID: ana.userID, date: group.today.adding(days: -1), viceBlocks: 4, goalBlocks: 8, version: 1)
            ],
            code: group.code, machine: Self.laptop)
        let before = try await group.rows(of: [ana, bo])

        let (code, ms, today, laptop) = (group.code.value, group.nowMilliseconds, group.day(0), Self.laptop.value)
        let asAna = ana.proof(secret: eve.secret)
        let days = "ARRAY[\(today)]::bigint[], ARRAY[0]::bigint[], ARRAY[0]::bigint[], ARRAY[99]::bigint[]"
        // eve names ana's machine with her own identity: it names nothing of hers.
        try await HostileGroup.expectRefused(
            [
                "SELECT screenmates.upsert_machine_days(\(unescaped: eve.proof()), \(laptop), \(code), \(unescaped: days))",
                """
                SELECT screenmates.upsert_machine_profile(\(unescaped: eve.proof()), \(laptop), 'ana', 0, \(today), 0,
                    NULL, \(ms), 99)
                """,
                "SELECT screenmates.retire_machine(\(unescaped: eve.proof()), \(laptop))",
                "SELECT screenmates.rename_machine(\(unescaped: eve.proof()), \(laptop), 'mine')",
            ], as: eve, with: "SMDEV")
        // eve as ana, with her own secret or her own login: refused before anything is looked at.
        try await HostileGroup.expectRefused(
            [
                "SELECT screenmates.upsert_machine_days(\(unescaped: asAna), \(laptop), \(code), \(unescaped: days))",
                """
                SELECT screenmates.upsert_machine_profile(\(unescaped: asAna), \(laptop), 'ana', 0, \(today), 0, NULL,
                    \(ms), 99)
                """,
                "SELECT screenmates.add_machine(\(unescaped: asAna), \(String(repeating: "e", count: 32)), 'eve', true)",
                "SELECT screenmates.rename_machine(\(unescaped: asAna), \(laptop), 'evil')",
                "SELECT screenmates.retire_machine(\(unescaped: asAna), \(laptop))",
                "SELECT * FROM screenmates.my_machines(\(unescaped: asAna))",
                "SELECT * FROM screenmates.my_machine_days(\(unescaped: asAna), \(code), \(today - 7), \(today))",
                """
                SELECT * FROM screenmates.join_group_on(\(unescaped: asAna), \(laptop), \(code), 'ana', 0, \(today), 0,
                    NULL, \(ms), 99, \(ms))
                """,
                """
                SELECT * FROM screenmates.create_group_on(\(unescaped: asAna), \(laptop), 8, 'ana', 0, \(today), 0,
                    NULL, \(ms), 99, \(ms))
                """,
            ], as: eve, with: "SMWHO")
        // ana's secret is not enough from eve's login either.
        try await HostileGroup.expectRefused(
            ["SELECT screenmates.retire_machine(\(unescaped: ana.proof()), \(laptop))"], as: eve, with: "SMWHO")
        #expect(try await group.rows(of: [ana, bo]) == before)
        // What eve reads of machines is her own only.
        #expect(try await eve.store.machines(userID: eve.userID).allSatisfy { $0.id == nil })
        #expect(try await ana.store.machines(userID: ana.userID).map(\.id) == [nil, Self.laptop])
        try await group.expectVictimStillWorks()
    }

    @Test func aMemberCannotInflateOrHideUsageByInventingMachines() async throws {
        let group = try await HostileGroup.make()
        let (mal, ana) = (group.mal, group.ana)
        _ = try await mal.store.join(code: group.code, member: mal.profile, now: group.now)
        func machine(_ number: Int) -> String { String(format: "%032x", number) }
        func add(_ number: Int) -> PostgresQuery {
            "SELECT screenmates.add_machine(\(unescaped: mal.proof()), \(machine(number)), \("m\(number)"), false)"
        }
        // mal's first machine and three more are in use: a fifth is refused.
        for number in 1...3 { #expect(try await HostileGroup.sqlState(of: add(number), as: mal.login) == nil) }
        try await HostileGroup.expectRefused([add(4)], as: mal, with: "SMQTA")
        // Each machine sends a whole day: the group reads one day of 1,440 blocks, not four.
        let today = group.day(0)
        for number in [1, 2, 3] {
            let days = "ARRAY[\(today)]::bigint[], ARRAY[1440]::bigint[], ARRAY[8]::bigint[], ARRAY[1]::bigint[]"
            #expect(
                try await HostileGroup.sqlState(
                    of: """
                        SELECT screenmates.upsert_machine_days(\(unescaped: mal.proof()), \(machine(number)),
                            \(group.code.value), \(unescaped: days))
                        """, as: mal.login) == nil)
        }
        let read = try await ana.store.dayTotals(code: group.code, days: group.today...group.today)
        #expect(read.first { $0.userID == mal.userID }?.viceBlocks == 1440)
        // Adding and removing in a loop stops at 16 kept.
        var added = 4
        while added < 40 {
            let retire: PostgresQuery =
                "SELECT screenmates.retire_machine(\(unescaped: mal.proof()), \(machine(added - 1)))"
            #expect(try await HostileGroup.sqlState(of: retire, as: mal.login) == nil)
            if try await HostileGroup.sqlState(of: add(added), as: mal.login) == "SMQTA" { break }
            added += 1
        }
        #expect(added == 16)
        #expect(
            try await group.values(
                "SELECT count(*) FROM screenmates.machine WHERE user_id = '\(mal.id)'", Int64.self) == [16])
        // Removing a machine hides nothing it used.
        #expect(
            try await ana.store.dayTotals(code: group.code, days: group.today...group.today)
                .first { $0.userID == mal.userID }?.viceBlocks == 1440)
    }

    @Test func valuesNoClientWouldSendAreRefusedOrLeftOut() async throws {
        let group = try await HostileGroup.make()
        let mal = group.mal
        _ = try await mal.store.join(code: group.code, member: mal.profile, now: group.now)
        try await mal.store.addMachine(
            Self.desk, name: MachineName(validating: "desk"), userID: mal.userID, adoptingFirst: false)
        let before = try await group.rows(of: [mal], changeMark: false)
        let (code, today, desk) = (group.code.value, group.day(0), Self.desk.value)
        func days(_ dates: String, _ vice: String, _ goals: String, _ versions: String) -> PostgresQuery {
            """
            SELECT screenmates.upsert_machine_days(\(unescaped: mal.proof()), \(desk), \(code),
                \(unescaped: dates)::bigint[], \(unescaped: vice)::bigint[], \(unescaped: goals)::bigint[],
                \(unescaped: versions)::bigint[])
            """
        }
        // Counts out of bounds are left out, the call answers.
        for call in [
            days("ARRAY[\(today)]", "ARRAY[1000000000000000000]", "ARRAY[8]", "ARRAY[1]"),
            days("ARRAY[\(today)]", "ARRAY[-1]", "ARRAY[8]", "ARRAY[1]"),
            days("ARRAY[\(today)]", "ARRAY[1]", "ARRAY[97]", "ARRAY[1]"),
            days("ARRAY[\(today)]", "ARRAY[1]", "ARRAY[8]", "ARRAY[0]"),
            days("ARRAY[\(today)]", "ARRAY[1]", "ARRAY[8]", "ARRAY[9007199254740993]"),
            days("ARRAY[2932897]", "ARRAY[1]", "ARRAY[8]", "ARRAY[1]"),
        ] {
            #expect(try await HostileGroup.sqlState(of: call, as: mal.login) == nil, "\(call.sql)")
        }
        // Productive blocks out of bounds: the day is left out; a profile saying them is refused.
        for productive in ["ARRAY[1441]", "ARRAY[-1]", "ARRAY[1000000000000000000]"] {
            let call: PostgresQuery = """
                SELECT screenmates.upsert_machine_days(\(unescaped: mal.proof()), \(desk), \(code),
                    ARRAY[\(today)]::bigint[], ARRAY[1]::bigint[], ARRAY[8]::bigint[], ARRAY[1]::bigint[],
                    \(unescaped: productive)::bigint[])
                """
            #expect(try await HostileGroup.sqlState(of: call, as: mal.login) == nil, "\(call.sql)")
        }
        let ms = group.nowMilliseconds
        try await HostileGroup.expectRefused(
            [1441, -1].map { productive in
                """
                SELECT screenmates.upsert_machine_profile(\(unescaped: mal.proof()), \(desk), 'mal', 0, \(today), 0,
                    NULL, \(ms), 99, \(productive))
                """
            }, as: mal, with: "SMVAL")
        let many = "ARRAY(SELECT \(today) FROM generate_series(1, 1001))"
        try await HostileGroup.expectRefused([days(many, many, many, many)], as: mal, with: "SMVAL")
        let manyProductive: PostgresQuery = """
            SELECT screenmates.upsert_machine_days(\(unescaped: mal.proof()), \(desk), \(code),
                ARRAY[\(today)]::bigint[], ARRAY[1]::bigint[], ARRAY[8]::bigint[], ARRAY[1]::bigint[],
                \(unescaped: many)::bigint[])
            """
        try await HostileGroup.expectRefused([manyProductive], as: mal, with: "SMVAL")
        // Machine ids and names of other shapes.
        var refused: [PostgresQuery] = []
        for id in ["FIRST", "../x", String(repeating: "a", count: 10_000), String(repeating: "A", count: 32)] {
            refused.append(
                """
                SELECT screenmates.upsert_machine_days(\(unescaped: mal.proof()), \(id), \(code),
                    ARRAY[\(today)]::bigint[], ARRAY[1]::bigint[], ARRAY[8]::bigint[], ARRAY[1]::bigint[])
                """)
            refused.append("SELECT screenmates.add_machine(\(unescaped: mal.proof()), \(id), 'box', false)")
        }
        refused.append("SELECT screenmates.add_machine(\(unescaped: mal.proof()), 'first', 'box', true)")
        let other = String(repeating: "c", count: 32)
        for name in ["a\u{1B}[2Jb", String(repeating: "n", count: 4000), "", "two words", "ünï"] {
            refused.append("SELECT screenmates.add_machine(\(unescaped: mal.proof()), \(other), \(name), false)")
            refused.append("SELECT screenmates.rename_machine(\(unescaped: mal.proof()), \(desk), \(name))")
        }
        try await HostileGroup.expectRefused(refused, as: mal, with: "SMVAL")
        #expect(try await group.rows(of: [mal], changeMark: false) == before)
    }

    /// `body` again while the server says busy: on a loaded machine another connection's
    /// transaction can hold the rows past the 2 s lock timeout, and a busy call changed nothing. A
    /// deadlock is no busy (`.unavailable`): it still fails the test.
    @discardableResult
    static func whileBusy<T: Sendable>(_ body: () async throws(GroupStoreError) -> T) async throws(GroupStoreError)
        -> T
    {
        for _ in 0..<30 {
            do {
                return try await body()
            } catch {
                guard case .busy = error else { throw error }
            }
        }
        return try await body()
    }

    @Test func twoMachinesWritingAtOnceAddUpExactlyWithoutADeadlock() async throws {
        let group = try await HostileGroup.make()
        let ana = group.ana
        for (id, name) in [(Self.laptop, "laptop"), (Self.desk, "desk")] {
            try await ana.store.addMachine(
                id, name: MachineName(validating: name), userID: ana.userID, adoptingFirst: false)
        }
        // Days a strict store takes from a member who joined today: from two days before.
        let dates = (0..<3).map { group.today.adding(days: -$0) }
        let rounds = 12
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for machine in [Self.laptop, Self.desk] {
                for round in 1...rounds {
                    tasks.addTask {
                        let store = PostgresGroupStore(address: ana.login, keyring: .single(ana.userID, ana.secret))
                        try await store.closing { () async throws(GroupStoreError) in
                            try await Self.whileBusy { () async throws(GroupStoreError) in
                                try await store.upsertDayTotals(
                                    dates.map {
                                        DayTotal(
                                            userID: ana.userID, date: $0, viceBlocks: round * 10, goalBlocks: 8,
                                            version: Int64(round), productiveBlocks: round)
                                    }, code: group.code, machine: machine)
                            }
                        }
                    }
                }
            }
            // Meanwhile ana adds and removes another machine, and a home takes her first over.
            tasks.addTask {
                for number in 0..<4 {
                    let id = try MachineID(validating: String(format: "%032x", 100 + number))
                    let name = try MachineName(validating: "spare\(number)")
                    try await Self.whileBusy { () async throws(GroupStoreError) in
                        try await ana.store.addMachine(id, name: name, userID: ana.userID, adoptingFirst: number == 0)
                    }
                    try await Self.whileBusy { () async throws(GroupStoreError) in
                        try await ana.store.retireMachine(id, userID: ana.userID)
                    }
                }
            }
            try await tasks.waitForAll()
        }
        // Each machine's newest (round 12: 120 blocks) counts once, with the 2 blocks ana's first
        // machine sent for today, which went to the machine that took it over.
        let totals = try await group.bo.store.dayTotals(code: group.code, days: dates.last!...dates.first!)
            .filter { $0.userID == ana.userID }
        #expect(totals.map(\.date) == dates.reversed())
        #expect(totals.map(\.viceBlocks) == [240, 240, 242])
        // Each machine's productive blocks are its newest too, for ana alone.
        let own = try await ana.store.machineDayTotals(
            code: group.code, userID: ana.userID, days: dates.last!...dates.first!)
        #expect(
            own.filter { [Self.laptop, Self.desk].contains($0.machine) }.map(\.productiveBlocks)
                == Array(repeating: 12, count: 6))
    }
}
