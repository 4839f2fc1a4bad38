import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesPostgresGroupStore
import Synchronization

/// The group store on a PostgreSQL server: how long a change takes to reach another client,
/// how many profile updates a second it takes, and how long a 10,000-member group takes to
/// fetch. Each run works in a group of its own in the database the URL names.
enum PostgresBenchmark {
    struct Result {
        /// From the start of one client's upsert to the other client's change stream yielding.
        var signalMillis: [Double]
        /// …and to that client having read the group again with the change in it.
        var reReadMillis: [Double]
        var upsertsPerSecondOneClient: Double
        var upsertsPerSecondEightClients: Double
        var fetchMillis: [Double]
        /// One member's new profile, then the change marks and the members changed since (one).
        var changedMillis: [Double]
        /// The server's part of each fetch: `EXPLAIN ANALYZE`'s execution time of the same call.
        var serverMillis: [Double]
        var fetchMembers: Int
        /// From `pg_terminate_backend` of the listener's connection to its stream yielding again.
        var reconnectMillis: [Double]
    }

    static func run(url: String, changes: Int, upserts: Int, members: Int) async throws -> Result {
        let address = try PostgresAddress(url: url)
        // Every member the benchmark plays proves itself with a secret of its own, as a home would.
        let keyring = BenchKeyring.make()
        let a = PostgresGroupStore(address: address, keyring: keyring)
        let b = PostgresGroupStore(address: address, keyring: keyring)
        let now = Date()
        // The figures do not depend on the day: any zone does, UTC on every machine.
        let today = DayCalendar(timeZone: TimeZone(identifier: "UTC")!).day(containing: now)
        func id(_ text: String) -> UserID { try! UserID(validating: text) }
        func profile(_ id: UserID, _ name: String, version: Int64, blocks: Int = 0) -> MemberProfile {
            MemberProfile(
                userID: id, displayName: try! DisplayName(validating: name), blocksToday: blocks, day: today,
                streak: 0, lastActive: now, lastUpdated: now, version: version)
        }
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)

        // Change → the other client's stream, and → its fresh read.
        let ana = profile(id("ana" + suffix), "ana", version: 1)
        let group = try await a.createGroup(dailyGoalBlocks: 8, creator: ana, now: now)
        let bo = profile(id("bo" + suffix), "bo", version: 1)
        _ = try await b.join(code: group.code, member: bo, now: now)
        let yields = YieldTimes()
        let watcher = Task {
            for await _ in b.changes(code: group.code) { yields.record() }
        }
        _ = try await yields.wait(after: 0)
        var signal: [Double] = []
        var reRead: [Double] = []
        let clock = ContinuousClock()
        for round in 0..<changes {
            try await Task.sleep(for: .milliseconds(40))
            let seen = yields.count
            let version = Int64(round + 2)
            let started = clock.now
            try await a.upsertProfile(profile(ana.userID, "ana", version: version, blocks: round % 9))
            let yielded = try await yields.wait(after: seen)
            signal.append(millis(started.duration(to: yielded)))
            let fresh = try await b.members(code: group.code)
            guard fresh.first(where: { $0.userID == ana.userID })?.version == version else {
                throw BenchmarkError("the other client read a stale profile")
            }
            reRead.append(millis(started.duration(to: clock.now)))
        }

        // The listener's connection killed: how soon its stream yields again.
        var reconnect: [Double] = []
        for _ in 0..<20 {
            try await Task.sleep(for: .milliseconds(100))
            let seen = yields.count
            let started = clock.now
            try await terminateListeners(address)
            let yielded = try await yields.wait(after: seen)
            reconnect.append(millis(started.duration(to: yielded)))
        }
        watcher.cancel()
        await watcher.value

        // Upserts: one client one at a time, then eight clients at once (one member each).
        var version: Int64 = 1000
        let oneStarted = clock.now
        for round in 0..<upserts {
            version += 1
            try await a.upsertProfile(profile(ana.userID, "ana", version: version, blocks: round % 9))
        }
        let onePerSecond = Double(upserts) / seconds(oneStarted.duration(to: clock.now))
        var clients: [(PostgresGroupStore, MemberProfile)] = []
        for index in 0..<8 {
            let store = PostgresGroupStore(address: address, keyring: keyring)
            let member = profile(id("w\(index)" + suffix), "writer\(index)", version: 1)
            _ = try await store.join(code: group.code, member: member, now: now)
            clients.append((store, member))
        }
        let eachCount = max(1, upserts / 8)
        let manyStarted = clock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for (store, member) in clients {
                tasks.addTask {
                    for round in 0..<eachCount {
                        var update = member
                        update.version = Int64(round + 2)
                        update.blocksToday = round % 9
                        try await store.upsertProfile(update)
                    }
                }
            }
            try await tasks.waitForAll()
        }
        let manyPerSecond = Double(eachCount * 8) / seconds(manyStarted.duration(to: clock.now))

        // A group of `members`: filled by 16 clients at once, then fetched.
        let crowdCreator = profile(id("c0" + suffix), "crowd0", version: 1)
        let crowd = try await a.createGroup(dailyGoalBlocks: 8, creator: crowdCreator, now: now)
        let fillers = (0..<16).map { _ in PostgresGroupStore(address: address, keyring: keyring) }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for (lane, store) in fillers.enumerated() {
                tasks.addTask {
                    for index in stride(from: 1 + lane, to: members, by: fillers.count) {
                        let member = profile(id("c\(index)" + suffix), "crowd\(index)", version: 1, blocks: index % 13)
                        _ = try await store.join(code: crowd.code, member: member, now: now)
                    }
                }
            }
            try await tasks.waitForAll()
        }
        var fetch: [Double] = []
        var fetched = 0
        for _ in 0..<20 {
            let started = clock.now
            fetched = try await b.members(code: crowd.code).count
            fetch.append(millis(started.duration(to: clock.now)))
        }
        var changed: [Double] = []
        for round in 0..<20 {
            let mate = profile(id("c\(1 + round)" + suffix), "crowd\(1 + round)", version: 2, blocks: round)
            let seen = try await b.changeMark(code: crowd.code)
            try await fillers[(1 + round) % fillers.count].upsertProfile(mate)
            let started = clock.now
            _ = try await b.changeMarks(code: crowd.code)
            let read = try await b.members(code: crowd.code, changedAfter: seen)
            changed.append(millis(started.duration(to: clock.now)))
            guard read.map(\.userID) == [mate.userID] else {
                throw BenchmarkError("the members changed after one profile were \(read.count)")
            }
        }
        let server = try await serverMillis(address, code: crowd.code.value, runs: 20)
        for store in [a, b] + clients.map(\.0) + fillers { await store.close() }
        return Result(
            signalMillis: signal, reReadMillis: reRead, upsertsPerSecondOneClient: onePerSecond,
            upsertsPerSecondEightClients: manyPerSecond, fetchMillis: fetch, changedMillis: changed,
            serverMillis: server,
            fetchMembers: fetched, reconnectMillis: reconnect)
    }

    /// What the server reports as the execution time of the members' call (`EXPLAIN ANALYZE`,
    /// with the function's result read in full), `runs` times: the fetch minus the network,
    /// the client's decoding and the pool.
    private static func serverMillis(_ address: PostgresAddress, code: String, runs: Int) async throws -> [Double] {
        guard code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw BenchmarkError("a group code that is not letters and digits: \(code)")
        }
        let logger = Logger(label: "bench")
        let connection = try await PostgresConnection.connect(
            configuration: try address.connectionConfiguration(applicationName: "screenmates-bench"), id: 2,
            logger: logger)
        var times: [Double] = []
        for _ in 0..<runs {
            let rows = try await connection.query(
                """
                EXPLAIN (ANALYZE, TIMING OFF)
                SELECT known, user_id, display_name, blocks_today, day, streak, last_active, last_updated, version
                FROM screenmates.group_members('\(unescaped: code)')
                """, logger: logger
            ).collect()
            for row in rows {
                let line = try row.decode(String.self)
                if line.hasPrefix("Execution Time:"),
                    let value = Double(line.dropFirst("Execution Time:".count).split(separator: " ").first ?? "")
                {
                    times.append(value)
                }
            }
        }
        try await connection.close()
        return times
    }

    /// Ends the listening connections to the database, as a server restart or a network cut would.
    private static func terminateListeners(_ address: PostgresAddress) async throws {
        let logger = Logger(label: "bench")
        let connection = try await PostgresConnection.connect(
            configuration: try address.connectionConfiguration(applicationName: "screenmates-bench"), id: 1,
            logger: logger)
        let killed = try? await connection.query(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = \(PostgresGroupStore.listenerApplicationName) AND datname = current_database()
            """, logger: logger
        ).collect()
        try? await connection.close()
        guard killed?.isEmpty == false else { throw BenchmarkError("no listener connection to end") }
    }

    private static func millis(_ duration: Duration) -> Double { seconds(duration) * 1000 }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// When a change stream yielded, for waiting on the next one.
    final class YieldTimes: Sendable {
        private let times = Mutex<[ContinuousClock.Instant]>([])

        func record() { times.withLock { $0.append(ContinuousClock.now) } }

        var count: Int { times.withLock { $0.count } }

        /// The instant of the first yield after the first `count`, waiting up to 10 s for it.
        func wait(after count: Int) async throws -> ContinuousClock.Instant {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let instant = times.withLock({ $0.count > count ? $0[count] : nil }) { return instant }
                try await Task.sleep(for: .milliseconds(1))
            }
            throw BenchmarkError("no change signal within 10 s")
        }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Secrets for the members the benchmark plays, made on first use and kept for the run.
enum BenchKeyring {
    static func make() -> MemberKeyring {
        let secrets = Mutex<[UserID: MemberSecret]>([:])
        return MemberKeyring(
            reader: { nil },
            secret: { id in
                secrets.withLock { known in
                    if let secret = known[id] { return secret }
                    let made = MemberSecret.random()
                    known[id] = made
                    return made
                }
            })
    }
}
