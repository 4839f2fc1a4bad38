import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import ScreenMatesSQLiteGroupStore
import ScreenMatesTestSupport
import Synchronization
import Testing

/// Many writers on one file at once, as on a host where every member's dashboard reports to
/// the same group store. Each `SQLiteGroupStore` instance has its own connections (its own
/// `DatabasePool`), which at the SQLite level is exactly what separate processes have: they
/// meet only in the file's locks.
@Suite struct SQLiteGroupStoreConcurrencyTests {
    private typealias Contract = GroupStoreContract

    @Test func manyConnectionsJoinAndUpdateAtOnceWithoutALostUpdate() async throws {
        let connections = 8
        let membersPerConnection = 25
        let versions = Int64(20)
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let observer = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: observer)
        let code = group.code
        let markBefore = try await observer.changeMark(code: code)

        func profile(_ connection: Int, _ member: Int, version: Int64) -> MemberProfile {
            Contract.profile(
                "c\(connection)m\(member)", "member_\(connection)_\(member)", version: version, blocks: Int(version),
                streak: Int(version) % 5, lastActive: Contract.at(Int(version)), updated: Contract.at(Int(version)))
        }

        try await withThrowingTaskGroup(of: Void.self) { all in
            for connection in 0..<connections {
                all.addTask {
                    // What is checked is that no update is lost, not how long a write waits: on a
                    // busy machine (other suites run alongside) 200 writers can queue beyond 5 s.
                    let store = try await SQLiteGroupStore.open(at: path, busyTimeout: 60)
                    try await withThrowingTaskGroup(of: Void.self) { members in
                        for member in 0..<membersPerConnection {
                            members.addTask {
                                _ = try await store.join(
                                    code: code, member: profile(connection, member, version: 0), now: Contract.start)
                                var generator = SeededGenerator(seed: UInt64(connection * 1000 + member))
                                for version in (1...versions).shuffled(using: &generator) {
                                    try await store.upsertProfile(profile(connection, member, version: version))
                                }
                                let totals = (1...3).map { day in
                                    DayTotal(
                                        userID: UserID("c\(connection)m\(member)"),
                                        date: Contract.today.adding(days: -day),
                                        viceBlocks: day, goalBlocks: 8, version: Int64(day))
                                }
                                try await store.upsertDayTotals(totals.shuffled(using: &generator), code: code)
                            }
                        }
                        try await members.waitForAll()
                    }
                }
            }
            try await all.waitForAll()
        }

        let members = try await observer.members(code: code)
        #expect(members.count == 1 + connections * membersPerConnection)
        #expect(Set(members.map(\.userID)).count == members.count, "every member exactly once")
        var expected = [Contract.ana]
        for connection in 0..<connections {
            for member in 0..<membersPerConnection { expected.append(profile(connection, member, version: versions)) }
        }
        #expect(Set(members) == Set(expected), "every member with their newest profile")
        let totals = try await observer.dayTotals(code: code, days: Contract.today.adding(days: -3)...Contract.today)
        #expect(totals.count == 3 * connections * membersPerConnection)
        #expect(totals.allSatisfy { Int64($0.viceBlocks) == $0.version })
        // Every stored write moved the mark once: a join, each version newer than all before it
        // (a record in the shuffled order), and the day totals.
        var writes = 0
        for connection in 0..<connections {
            for member in 0..<membersPerConnection {
                var generator = SeededGenerator(seed: UInt64(connection * 1000 + member))
                var newest = Int64(0)
                for version in (1...versions).shuffled(using: &generator) where version > newest {
                    newest = version
                    writes += 1
                }
                writes += 2
            }
        }
        let mark = try await observer.changeMark(code: code)
        #expect(mark == markBefore + Int64(writes))
        #expect(try await observer.integrityProblems() == [])
    }

    /// Opens the store at `path` `count` times at once (each opening waits on a thread of its
    /// own), as processes started together would.
    private func openAtOnce(_ path: String, count: Int) async -> [Result<SQLiteGroupStore, GroupStoreError>] {
        await withTaskGroup(of: Result<SQLiteGroupStore, GroupStoreError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(GroupStoreError) {
                        return .success(try await SQLiteGroupStore.open(at: path))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func connectionsCreatingTheFileAtTheSameMomentAllSucceed() async throws {
        let scratch = Scratch()
        for _ in 0..<10 {
            let path = scratch.newStorePath()
            let results = await openAtOnce(path, count: 8)
            let stores = try results.map { try $0.get() }
            #expect(stores.count == 8)
            // And each can write at once, too.
            let codes = try await withThrowingTaskGroup(of: GroupCode.self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask {
                        let creator = Contract.profile("user\(index)", "creator\(index)")
                        return try await store.createGroup(dailyGoalBlocks: 8, creator: creator, now: Contract.start)
                            .code
                    }
                }
                return try await group.reduce(into: Set<GroupCode>()) { $0.insert($1) }
            }
            #expect(codes.count == 8)
            for code in codes {
                #expect(try await stores[0].members(code: code).count == 1)
            }
            #expect(try await stores[0].integrityProblems() == [])
        }
    }
}
