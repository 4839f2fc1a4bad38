import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesSQLiteGroupStore

/// What the store does against a member who can write the shared file and uses it to reach the
/// others: triggers and views it did not create are refused, no symbolic link is followed, and
/// its own connections run with SQLite's defensive settings.
@Suite struct SQLiteSharedFileDefenceTests {
    private typealias Contract = GroupStoreContract

    /// A trigger that makes every day a member sends also hand the hostile member coins, inside
    /// the victim's own transaction.
    private static let coinTrigger = """
        CREATE TRIGGER steal AFTER INSERT ON day_total BEGIN
            INSERT OR REPLACE INTO coin_standing VALUES ('mallory2', 'mallory', 999999, 0, 1, 999, 0);
        END
        """

    @Test func aTriggerAddedByAMemberIsRefusedAndNeverRuns() async throws {
        let scratch = Scratch()
        defer { withExtendedLifetime(scratch) {} }
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: store)
        let hostile = try HostileMember(path: path)
        try hostile.execute(Self.coinTrigger)
        let refusal = GroupStoreError.unusable(
            location: path,
            detail:
                "it holds a trigger \"steal\" that ScreenMates did not create; someone who can write the file added it, and a trigger there could act in your name. Remove it (DROP TRIGGER \"steal\") if you trust whoever made it"
        )
        // A store already open refuses its next write, before the trigger can run…
        await Contract.expectError(refusal) {
            try await store.upsertDayTotals(
                [Contract.day(Contract.ana.userID, Contract.today.adding(days: -1), vice: 2)], code: group.code)
        }
        let stolen: Int? = try hostile.value("SELECT count(*) FROM coin_standing")
        #expect(stolen == 0, "the trigger ran")
        #expect(try hostile.value("SELECT count(*) FROM day_total") == 0)
        // …and its reads; a new one is not opened at all.
        await Contract.expectError(refusal) { _ = try await store.members(code: group.code) }
        await #expect {
            try await SQLiteGroupStore.open(at: path)
        } throws: { error in
            error as? GroupStoreError == refusal
        }
        // Dropped, the file is used again.
        try hostile.execute("DROP TRIGGER steal")
        #expect(try await store.members(code: group.code) == [Contract.ana])
        _ = try await SQLiteGroupStore.open(at: path)
    }

    @Test func aViewAddedByAMemberIsRefused() async throws {
        let scratch = Scratch()
        defer { withExtendedLifetime(scratch) {} }
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: store)
        try HostileMember(path: path).execute("CREATE VIEW everyone AS SELECT code, user_id FROM member")
        await Contract.expectError(
            .unusable(
                location: path,
                detail:
                    "it holds a view \"everyone\" that ScreenMates did not create; someone who can write the file added it, and a view there could act in your name. Remove it (DROP VIEW \"everyone\") if you trust whoever made it"
            )
        ) { _ = try await store.members(code: group.code) }
        await #expect(throws: GroupStoreError.self) { try await SQLiteGroupStore.open(at: path) }
    }

    /// An index on an expression is computed inside every write to its table: one that overflows
    /// made every member's profile write fail with "integer overflow". It is refused as a trigger
    /// is, naming the way out, and once dropped the file is used again.
    @Test func anIndexAddedByAMemberIsRefused() async throws {
        let scratch = Scratch()
        defer { withExtendedLifetime(scratch) {} }
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        try HostileMember(path: path).execute(
            "CREATE INDEX stall ON member(abs(version - version - 9223372036854775807 - 1))")
        await Contract.expectError(
            .unusable(
                location: path,
                detail:
                    "it holds an index \"stall\" that ScreenMates did not create; someone who can write the file added it, and an index there runs inside every write to its table. Remove it (DROP INDEX \"stall\") if you trust whoever made it"
            )
        ) { _ = try await Contract.newGroup(in: store) }
        try HostileMember(path: path).execute("DROP INDEX stall")
        let group = try await Contract.newGroup(in: try await SQLiteGroupStore.open(at: path))
        #expect(try await store.members(code: group.code) == [Contract.ana])
    }

    /// The store's own schema has no trigger and no view, and its own indexes: that is what it
    /// compares a file with.
    @Test func theStoreCreatesNoTriggerAndNoViewAndItsOwnIndexes() {
        #expect(ForeignSchemaObjects.created.allSatisfy { $0.type == "index" })
        #expect(ForeignSchemaObjects.created.contains { $0.name == "member_by_change" })
    }

    @Test func aSymbolicLinkInPlaceOfTheFileOrACompanionIsNotFollowed() async throws {
        let scratch = Scratch()
        defer { withExtendedLifetime(scratch) {} }
        // The victim's own file, which only the victim can write.
        let victims = scratch.newStorePath()
        let victim = try await SQLiteGroupStore.open(at: victims)
        let group = try await Contract.newGroup(in: victim)
        let before = FileManager.default.contents(atPath: victims)
        for companion in ["", "-wal", "-shm", ".lock"] {
            let path = scratch.newStorePath()
            if companion != "" { _ = try await SQLiteGroupStore.open(at: path) }
            let link = path + companion
            try? FileManager.default.removeItem(atPath: link)
            #expect(symlink(victims + companion, link) == 0)
            let name = (link as NSString).lastPathComponent
            await #expect {
                try await SQLiteGroupStore.open(at: path)
            } throws: { error in
                guard case .unusable(let location, let detail) = error as? GroupStoreError else { return false }
                return location == path && detail.hasPrefix("\(name) is a symbolic link, and the store follows none")
            }
        }
        #expect(FileManager.default.contents(atPath: victims) == before, "the victim's file was written")
        #expect(try await victim.members(code: group.code) == [Contract.ana])
    }

    /// The store's connections: the schema is not trusted, and defensive mode keeps even the
    /// store's own SQL from rewriting the schema table.
    @Test func theStoresConnectionsRunDefensively() async throws {
        let scratch = Scratch()
        defer { withExtendedLifetime(scratch) {} }
        let store = try await SQLiteGroupStore.open(at: scratch.newStorePath())
        let trusted = try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA trusted_schema") }
        #expect(trusted == 0)
        await #expect(throws: GroupStoreError.self) {
            try await store.write { db in
                try db.execute(sql: "PRAGMA writable_schema = ON")
                try db.execute(sql: "UPDATE sqlite_schema SET sql = sql WHERE name = 'member'")
            }
        }
        // A plain connection, without those settings, can: what the defensive mode takes away.
        let plain = try DatabaseQueue(path: store.path)
        try await plain.write { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_schema SET sql = sql WHERE name = 'member'")
        }
    }
}
