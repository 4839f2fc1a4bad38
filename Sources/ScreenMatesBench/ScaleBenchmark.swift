import Foundation
import Glibc
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesPostgresGroupStore
import Synchronization

/// Many members on one PostgreSQL server at once, each played as a home of its own: a
/// `PostgresGroupStore` with its own secret that watches its group's changes and, at each
/// signal, looks at the group as the dashboard's link does (`GroupLook`: the change marks, then
/// what changed since its last look — the whole group only at its first), while it reports its profile a
/// few times over a day compressed into `seconds` (its first report also sends yesterday's
/// total). Members reach the server directly or through a connection pooler; behind one in
/// transaction mode their stores ask for the change mark every 2 s instead of listening.
///
/// Measured per run: the server connections the members hold, how long a member's report takes
/// to be seen by each other member of its group, the rows each change costs each of them, and
/// the CPU of the server's processes (and the pooler's). Each run gets a database and a login
/// role of its own, dropped after; members connect as that role, which owns nothing.
enum ScaleBenchmark {
    /// One exchange of the games as `GroupGames.exchange` makes it against the store (the
    /// member's home left out: nothing to report, so no write but the settlement).
    static func exchangeGames(
        _ store: PostgresGroupStore, code: GroupCode, today: LocalDate, settling: Bool, marked: Bool,
        said: GroupGamesMarks?, _ seen: inout GamesSeen
    ) async throws {
        if settling {
            _ = try await store.settleWeeks(code: code, today: today, now: Date())
            seen.settled = true
        }
        var known: GroupChangeMarks?
        // As `GroupGames.fetch`: the marks the look read with the changes, else asked (not after
        // settling, which may have changed the games).
        var gamesMarks = settling ? nil : said
        if marked, seen.readUpTo != nil, gamesMarks == nil { gamesMarks = try await store.gamesMarks(code: code) }
        if marked, let readUpTo = seen.readUpTo, let games = gamesMarks {
            if games.gamesUnchanged(since: readUpTo) {
                seen.readUpTo = games.marks.mark
                return
            }
            known = games.marks
        }
        let marks: GroupChangeMarks
        if let known { marks = known } else { marks = try await store.changeMarks(code: code) }
        let rules = try await store.settlementRules(code: code).rules
        let current = rules.firstDay(ofWeekContaining: today)
        let since = seen.readUpTo.flatMap { marks.canCatchUp(from: $0) ? $0 : nil }
        _ = try await store.groupChallenges(code: code, changedAfter: since)
        _ = try await store.memberCoins(code: code, changedAfter: since)
        _ = try await store.weekResults(code: code, weeks: current.adding(days: -7 * 12)...current, changedAfter: since)
        seen.readUpTo = marks.mark
    }

    /// Which members wrote (with `marked`: sent a finished day) since their games were last exchanged.
    final class Written: Sendable {
        private let flags: Mutex<[Bool]>

        init(members: Int) { flags = Mutex(Array(repeating: false, count: members)) }

        func set(_ member: Int) { flags.withLock { $0[member] = true } }

        /// Whether the member wrote since the last call; cleared.
        func take(_ member: Int) -> Bool {
            flags.withLock { flags in
                defer { flags[member] = false }
                return flags[member]
            }
        }
    }

    /// A count that tasks add to.
    final class Tally: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// How long the last reports get to be seen after the day ends.
    static let drainSeconds = 10.0

    /// When each member's profile writes returned, by member and version.
    final class WriteLog: Sendable {
        private let times: Mutex<[[ContinuousClock.Instant?]]>

        init(members: Int, versions: Int) {
            times = Mutex(Array(repeating: Array(repeating: nil, count: versions + 1), count: members))
        }

        func record(member: Int, version: Int64, at instant: ContinuousClock.Instant) {
            times.withLock { $0[member][Int(version)] = instant }
        }

        func instant(member: Int, version: Int64) -> ContinuousClock.Instant? {
            times.withLock { log in
                Int(version) < log[member].count ? log[member][Int(version)] : nil
            }
        }
    }

    static func run(plan: Plan, route: Route) async throws -> Result {
        let logger = Logger(label: "bench")
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let database = "screenmates_scale_" + suffix
        let role = "screenmates_scale_member_" + suffix
        let admin = try await PostgresConnection.connect(
            configuration: try route.server.connectionConfiguration(applicationName: "screenmates-bench"), id: 1,
            logger: logger)
        func execute(_ statement: String, on connection: PostgresConnection) async throws {
            _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
        }
        try await execute("CREATE ROLE \(role) LOGIN", on: admin)
        try await execute("CREATE DATABASE \(database)", on: admin)
        try await execute("GRANT CONNECT ON DATABASE \(database) TO \(role)", on: admin)
        do {
            let result = try await run(plan: plan, route: route, database: database, role: role, admin: admin)
            try? await execute("DROP DATABASE \(database) WITH (FORCE)", on: admin)
            try? await execute("DROP ROLE \(role)", on: admin)
            try? await admin.close()
            return result
        } catch {
            try? await execute("DROP DATABASE \(database) WITH (FORCE)", on: admin)
            try? await execute("DROP ROLE \(role)", on: admin)
            try? await admin.close()
            throw error
        }
    }

    private static func run(
        plan: Plan, route: Route, database: String, role: String, admin: PostgresConnection
    ) async throws -> Result {
        var owner = route.server
        owner.database = database
        // The schema, as its owner, and a policy that lets members choose their clock and lets
        // one login bring thousands of members and groups in a day.
        try await PostgresGroupStore(address: owner, keyring: .none).prepare()
        let configure = try await PostgresConnection.connect(
            configuration: try owner.connectionConfiguration(applicationName: "screenmates-bench"), id: 2,
            logger: Logger(label: "bench"))
        _ = try await configure.query(
            """
            UPDATE screenmates.store_policy SET members_choose_clock = true, groups_created_per_day = 100000,
                new_members_per_login_per_day = 100000
            """, logger: Logger(label: "bench")
        ).collect()
        try? await configure.close()

        var direct = owner
        direct.user = role
        var reach = route.pooler ?? direct
        reach.database = database
        reach.user = role

        // The members, their groups and their secrets.
        let now = Date()
        let today = DayCalendar(timeZone: TimeZone(identifier: "UTC")!).day(containing: now)
        let groupCount = (plan.members + plan.groupSize - 1) / plan.groupSize
        let ids = (0..<plan.members).map { try! UserID(validating: "m\($0)x" + database.suffix(6)) }
        let secrets = ids.map { _ in MemberSecret.random() }
        let index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        let groupOf = (0..<plan.members).map { $0 / plan.groupSize }
        let mates = (0..<plan.members).map { member in
            min(plan.groupSize, plan.members - groupOf[member] * plan.groupSize) - 1
        }
        @Sendable func profile(_ member: Int, version: Int64, blocks: Int, at: Date) -> MemberProfile {
            MemberProfile(
                userID: ids[member], displayName: try! DisplayName(validating: "member\(member)"),
                blocksToday: blocks, day: today, streak: 0, lastActive: at, lastUpdated: at, version: version)
        }

        // Groups made and joined by a few stores that hold every secret (not measured).
        let setupKeyring = MemberKeyring(reader: { nil }, secret: { index[$0].map { secrets[$0] } })
        let setupStores = (0..<8).map { _ in PostgresGroupStore(address: direct, keyring: setupKeyring) }
        var codes: [GroupCode] = []
        for group in 0..<groupCount {
            let store = setupStores[group % setupStores.count]
            let creator = group * plan.groupSize
            codes.append(
                try await store.createGroup(
                    dailyGoalBlocks: 8, creator: profile(creator, version: 1, blocks: 0, at: now), now: now
                ).code)
        }
        let groupCodes = codes
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for (lane, store) in setupStores.enumerated() {
                tasks.addTask {
                    for member in stride(from: lane, to: plan.members, by: setupStores.count)
                    where member % plan.groupSize != 0 {
                        _ = try await store.join(
                            code: groupCodes[groupOf[member]], member: profile(member, version: 1, blocks: 0, at: now),
                            now: now)
                    }
                }
            }
            try await tasks.waitForAll()
        }
        for store in setupStores { await store.close() }

        // The members' own stores, each with only its member's secret.
        let stores = (0..<plan.members).map {
            PostgresGroupStore(address: reach, keyring: .single(ids[$0], secrets[$0]))
        }
        let postmaster = try await postmasterID(admin)
        let poolerID = route.pooler.flatMap(poolerProcess)
        let connections = ConnectionSampler()
        let sampler = Task { await connections.sample(admin, database: database) }
        let serverBefore = serverCPU(postmaster: postmaster)
        let poolerBefore = poolerID.map(processCPU)
        let clientBefore = processCPU(getpid())
        let clock = ContinuousClock()
        let started = clock.now

        // Each member watches its group from now on, started over a few seconds as homes would.
        let watching = Tally()
        let wrote = Written(members: plan.members)
        var watchers: [Task<Sightings, Never>] = []
        for member in 0..<plan.members {
            let store = stores[member]
            let code = groupCodes[groupOf[member]]
            let id = ids[member]
            watchers.append(
                Task {
                    var sightings = Sightings()
                    var current: GroupSnapshot?
                    var versions: [Int: Int64] = [:]
                    var games = GamesSeen()
                    for await _ in store.changes(code: code) {
                        do {
                            let lookStart = clock.now
                            // As the dashboard's link looks: the change marks, then what changed.
                            let look = try await GroupLook.look(
                                at: store, code: code, userID: id, today: today, now: Date(), previous: current)
                            current = look.snapshot
                            sightings.rows += 1
                            sightings.bytes += RowBytes.changeMark
                            if plan.games != .none, look.snapshot.mark != games.exchangedMark {
                                let settle = plan.games == .settleAlways || wrote.take(member) || !games.settled
                                try await exchangeGames(
                                    store, code: code, today: today, settling: settle, marked: plan.games == .marked,
                                    said: look.games, &games)
                                games.exchangedMark = look.snapshot.mark
                                sightings.gameExchanges += 1
                                if settle { sightings.settlements += 1 }
                            }
                            guard look.changed else { continue }
                            let at = clock.now
                            sightings.lookMillis.append(millis(lookStart.duration(to: at)))
                            let members = look.membersRead
                            sightings.looks += 1
                            if look.whole { sightings.wholeLooks += 1 }
                            sightings.rows += (look.whole ? 1 : 0) + members.count + look.sumsRead
                            sightings.bytes +=
                                (look.whole ? RowBytes.group : 0) + members.reduce(0) { $0 + RowBytes.member($1) }
                                + look.sumsRead * RowBytes.blockSum(id)
                            if !sightings.firstLook {
                                sightings.firstLook = true
                                watching.add()
                            }
                            for profile in members {
                                guard let other = index[profile.userID], other != member else { continue }
                                let before = versions[other] ?? 1
                                guard profile.version > before else { continue }
                                for version in (before + 1)...profile.version {
                                    sightings.seen.append((other, version, at))
                                }
                                versions[other] = profile.version
                            }
                        } catch {
                            sightings.failures.add(error)
                        }
                    }
                    return sightings
                })
            if member % 50 == 49 { try? await Task.sleep(for: .milliseconds(50)) }
        }
        // The day starts once every member has looked once, with its first exchange of the games
        // (or after 120 s: some never may). Thousands of dashboards opened in the same few
        // seconds are a storm of whole reads of their own; the day measures what follows.
        let warmUpEnd = clock.now + .seconds(120)
        while watching.value < plan.members && clock.now < warmUpEnd {
            try? await Task.sleep(for: .milliseconds(100))
        }

        // The day: each member reports at moments of its own.
        let log = WriteLog(members: plan.members, versions: plan.reports + 1)
        let dayStart = clock.now
        let outcomes = try await withThrowingTaskGroup(of: (Int, Failures, Int, Int).self) { tasks in
            for member in 0..<plan.members {
                let store = stores[member]
                let code = groupCodes[groupOf[member]]
                let moments = (0..<plan.reports).map { _ in Double.random(in: 0..<plan.seconds) }.sorted()
                tasks.addTask {
                    var failures = Failures()
                    var profiles = 0
                    var totals = 0
                    var blocks = 0
                    for (report, moment) in moments.enumerated() {
                        try? await Task.sleep(until: dayStart + .milliseconds(Int64(moment * 1000)), clock: clock)
                        let version = Int64(report + 2)
                        blocks += Int.random(in: 1...3)
                        do {
                            try await store.upsertProfile(profile(member, version: version, blocks: blocks, at: Date()))
                            log.record(member: member, version: version, at: clock.now)
                            // Today's numbers are in no closed week: the link now settles after
                            // finished days only.
                            if plan.games != .marked { wrote.set(member) }
                            profiles += 1
                        } catch {
                            failures.add(error)
                        }
                        guard report == 0 else { continue }
                        do {
                            let yesterday = DayTotal(
                                userID: ids[member], date: today.adding(days: -1), viceBlocks: Int.random(in: 0...12),
                                goalBlocks: 8, version: version)
                            try await store.upsertDayTotals([yesterday], code: code)
                            wrote.set(member)
                            totals += 1
                        } catch {
                            failures.add(error)
                        }
                    }
                    return (member, failures, profiles, totals)
                }
            }
            var all: [(Int, Failures, Int, Int)] = []
            for try await outcome in tasks { all.append(outcome) }
            return all
        }
        var failedWrites = Failures()
        var profileWrites = 0
        var writes = 0
        // Every write that returned, once per other member of its writer's group.
        var mateWrites = 0
        var expectedPairs = 0
        for (member, failures, profiles, totals) in outcomes {
            failedWrites.merge(failures)
            profileWrites += profiles
            writes += profiles + totals
            mateWrites += (profiles + totals) * mates[member]
            expectedPairs += profiles * mates[member]
        }

        // Time for the last reports to be seen.
        try? await Task.sleep(for: .seconds(drainSeconds))
        let measured = clock.now
        let serverAfter = serverCPU(postmaster: postmaster)
        let poolerAfter = poolerID.map(processCPU)
        let clientAfter = processCPU(getpid())
        let calls = stores.reduce(0) { $0 + $1.serverCalls }
        for watcher in watchers { watcher.cancel() }
        var looks = 0
        var wholeLooks = 0
        var rows = 0
        var bytes = 0
        var latency: [Double] = []
        var lookMillis: [Double] = []
        var failedLooks = Failures()
        var firstLooks = 0
        var gameExchanges = 0
        var settlements = 0
        for watcher in watchers {
            let sightings = await watcher.value
            gameExchanges += sightings.gameExchanges
            settlements += sightings.settlements
            looks += sightings.looks
            wholeLooks += sightings.wholeLooks
            rows += sightings.rows
            bytes += sightings.bytes
            failedLooks.merge(sightings.failures)
            lookMillis += sightings.lookMillis
            if sightings.firstLook { firstLooks += 1 }
            for seen in sightings.seen {
                guard let written = log.instant(member: seen.member, version: seen.version) else { continue }
                latency.append(max(0, millis(written.duration(to: seen.at))))
            }
        }
        sampler.cancel()
        let maxConnections = await sampler.value
        await withTaskGroup(of: Void.self) { tasks in
            for store in stores { tasks.addTask { await store.close() } }
        }
        return Result(
            plan: plan, groups: groupCount, watching: firstLooks, serverConnections: maxConnections,
            profileWrites: profileWrites, writes: writes, failedWrites: failedWrites, failedLooks: failedLooks,
            latencyMillis: latency, unseen: max(0, expectedPairs - latency.count), lookMillis: lookMillis, looks: looks,
            wholeLooks: wholeLooks,
            lookRows: rows,
            lookBytes: bytes, mateWrites: mateWrites,
            serverCPUSeconds: serverAfter - serverBefore,
            poolerCPUSeconds: poolerBefore.flatMap { before in poolerAfter.map { $0 - before } },
            clientCPUSeconds: clientAfter - clientBefore, serverCalls: calls, gameExchanges: gameExchanges,
            settlements: settlements,
            measuredSeconds: seconds(started.duration(to: measured)),
            warmUpSeconds: seconds(started.duration(to: dayStart)))
    }

}
