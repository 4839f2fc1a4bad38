import Foundation
import GRDB
import PropertyBased
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import ScreenMatesSQLiteGroupStore
import Testing

/// Random and extreme rows written into a real group-store file by a member with write access,
/// past every check the store makes, then read back as a client reads them: nothing traps, the
/// rows that cannot be right are left out and named, the right ones still come through
/// (`HostileRowsCheck`).
@Suite struct SQLiteHostileRowsTests {
    private typealias Contract = GroupStoreContract

    @Test func nothingAMemberWritesIntoTheFileCrashesOrPoisonsTheOthers() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...16), Gen.uint64()) { count, seed in
            let scratch = Scratch()
            defer { withExtendedLifetime(scratch) {} }
            let path = scratch.newStorePath()
            let store = try await SQLiteGroupStore.open(at: path)
            let group = try await Contract.newGroup(in: store)
            _ = try await store.join(code: group.code, member: Contract.bo, now: Contract.start)
            try await store.createGroupChallenge(
                Contract.challenge(HostileRows.challengeID), code: group.code, creatorID: Contract.ana.userID,
                now: Contract.start)
            let rows = HostileRows.generate(count: count, today: Contract.today, looseTypes: true, seed: seed)
            try Self.plant(rows, code: group.code, path: path)
            try await HostileRowsCheck.expectReadersHold(store, group: group, planted: rows, today: Contract.today)
        }
    }

    /// Writes the rows as they are, in the file's own tables.
    static func plant(_ rows: [HostileRow], code: GroupCode, path: String) throws {
        let hostile = try HostileMember(path: path)
        for row in rows {
            let names = row.columns.map(\.name)
            let values = StatementArguments(row.columns.map { databaseValue($0.value) })
            switch row.table {
            case .settlementRules:
                let assignments = names.map { "\($0) = ?" }.joined(separator: ", ")
                try hostile.execute(
                    "UPDATE group_info SET \(assignments) WHERE code = ?", arguments: values + [code.value])
            case .coins:
                let marks = names.map { _ in "?" }.joined(separator: ", ")
                try hostile.execute(
                    "INSERT INTO coin_standing (\(names.joined(separator: ", "))) VALUES (\(marks))", arguments: values)
            default:
                let marks = names.map { _ in "?" }.joined(separator: ", ")
                try hostile.execute(
                    "INSERT INTO \(row.table.rawValue) (code, \(names.joined(separator: ", "))) VALUES (?, \(marks))",
                    arguments: [code.value] + values)
            }
        }
    }

    private static func databaseValue(_ value: HostileValue) -> DatabaseValue {
        switch value {
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .null: .null
        }
    }

    /// The generator itself: right rows are right by the rules the readers keep, and the same
    /// seed makes the same rows (so a failing case can be planted again).
    @Test func theHostileRowsAreWhatTheySayTheyAre() {
        let rows = HostileRows.generate(count: 200, today: Contract.today, looseTypes: false, seed: 7)
        #expect(
            rows.map(\.columns.count)
                == HostileRows.generate(count: 200, today: Contract.today, looseTypes: false, seed: 7).map(
                    \.columns.count))
        #expect(rows.contains(where: \.isRight) && rows.contains { !$0.isRight })
        for row in rows {
            for column in row.columns {
                switch column.value {
                case .real: Issue.record("strict types: \(column.name) holds a real")
                case .text(let text) where text.contains("\u{0}"):
                    Issue.record("strict types: \(column.name) holds NUL")
                default: break
                }
            }
        }
        for row in rows where row.table == .member && row.isRight {
            guard case .text(let name)? = row.value("display_name") else { continue }
            #expect((try? DisplayName(validating: name)) != nil, "\(name)")
        }
    }
}
