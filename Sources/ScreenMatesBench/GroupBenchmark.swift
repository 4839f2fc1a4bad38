import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesSQLiteGroupStore
import ScreenMatesStore
import ScreenMatesUI

/// Groups: how soon one member's change reaches another member's screen, what a large group
/// costs to fetch, rank and draw, and what a dashboard watching a quiet group costs.
enum GroupBenchmark {
    /// The group's daily goal in the latency runs: the highest there is.
    static let goal = UsageRules.dailyGoalRange.upperBound

    /// Two members of one group on a shared group-store file, each with a home of their own.
    struct Pair {
        let root: String
        let store: String
        var anaHome: String { root + "/ana" }
        var boHome: String { root + "/bo" }

        /// `server`: a `postgres://` URL for the group store, else a file of the pair's own.
        init(binary: String, server: String? = nil) throws {
            root = NSTemporaryDirectory() + "screenmates-bench-group-" + UUID().uuidString
            store = server ?? root + "/group-store.sqlite"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            for (name, home) in [("ana", anaHome), ("bo", boHome)] {
                try run(binary, ["setup", "--home", home, "--name", name], home: home)
            }
            // The highest goal: every block up to it changes the row's figure.
            try run(
                binary,
                ["group", "create", "--goal", "\(GroupBenchmark.goal)", "--home", anaHome, "--group-store", store],
                home: anaHome)
            let code = try groupCode(binary)
            try run(binary, ["group", "join", code, "--home", boHome, "--group-store", store], home: boHome)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }

        func dashboard(_ binary: String, home: String) throws -> PseudoTerminal {
            let terminal = try PseudoTerminal(
                program: binary, arguments: ["--home", home, "--group-store", store, "dashboard"],
                environment: MonitorBenchmark.environment(home: home), rows: 40, columns: 120)
            terminal.read(for: 10) { $0.contains("synced") }
            return terminal
        }

        private func run(_ binary: String, _ arguments: [String], home: String) throws {
            guard
                try ChildProcess.run(binary, arguments, MonitorBenchmark.environment(home: home))
                    == 0
            else { throw POSIXError(.EINVAL) }
        }

        private func groupCode(_ binary: String) throws -> String {
            let show = try ChildProcess(
                binary, ["group", "show", "--json", "--home", anaHome, "--group-store", store],
                environment: MonitorBenchmark.environment(home: anaHome))
            show.wait()
            let text = show.lines.map(\.line).joined(separator: "\n")
            guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let code = object["code"] as? String
            else { throw POSIXError(.EINVAL) }
            return code
        }
    }

    /// Milliseconds from a monitor's commit in ana's home to the next bytes bo's dashboard writes
    /// to its terminal: ana's dashboard picks the event up and reports it, bo's notices the group
    /// store change, fetches the group and redraws ana's row. Only vice blocks change what bo
    /// sees (productive time is not shown to the group), so only those are timed.
    /// `server`: a `postgres://` URL to share the group through instead of a file.
    static func latency(binary: String, events: Int, rate: Double, server: String? = nil) throws -> [Double] {
        let pair = try Pair(binary: binary, server: server)
        defer { pair.remove() }
        let ana = try pair.dashboard(binary, home: pair.anaHome)
        let bo = try pair.dashboard(binary, home: pair.boHome)
        bo.read(for: 2)
        let monitor = try ChildProcess(
            binary, ["monitor", "--home", pair.anaHome, "--rate", "\(rate)", "--count", "\(events)", "--seed", "77"],
            environment: MonitorBenchmark.environment(home: pair.anaHome))
        // Both terminals must be drained while the monitor runs; bo's is read, ana's kept open.
        let deadline = ContinuousClock.now + .seconds(Double(events) / rate + 3)
        while ContinuousClock.now < deadline {
            bo.read(for: 0.25)
            ana.read(for: 0.01)
        }
        monitor.wait()
        let stored = try LocalStore.open(at: pair.anaHome + "/local.sqlite").events(after: 0)
        let vice = Set(stored.filter { $0.event.category == .vice }.map { $0.event.id.uuidString })
        var delays: [Double] = []
        // Up to the goal: the block past it makes ana a group-mate over the limit, whose notice
        // bo's dashboard shows as a toast over the leaderboard for five seconds, covering the
        // row whose changes are timed.
        let timed = monitor.lines.filter { vice.contains($0.line.trimmingCharacters(in: .whitespaces)) }
            .prefix(Self.goal)
        for commit in timed {
            guard let shown = bo.output.first(where: { $0.at >= commit.at }) else { continue }
            delays.append(milliseconds(shown.at - commit.at))
        }
        _ = ana.terminate()
        _ = bo.terminate()
        return delays
    }

    /// CPU seconds bo's dashboard uses over `seconds` while the group is quiet.
    static func quietGroupCPU(binary: String, seconds: Double) throws -> Double {
        let pair = try Pair(binary: binary)
        defer { pair.remove() }
        let bo = try pair.dashboard(binary, home: pair.boHome)
        bo.read(for: 1)
        let before = bo.cpuSeconds
        bo.read(for: seconds)
        let cpu = bo.cpuSeconds - before
        _ = bo.terminate()
        return cpu
    }

    struct LargeGroup {
        var members: Int
        var totals: Int
        var fetchMillis: [Double]
        /// One member's new profile, then a look that catches up from the changes (`GroupLook`).
        var changeLookMillis: [Double] = []
        var membersMillis: [Double]
        var rankMillis: [Double]
        var frameMillis: [Double]
    }

    /// Fetch (group, members and the month's day totals, cached locally), rank (today, week and
    /// month) and one 120×40 frame, for a group of `count` members in a group-store file. On a
    /// fixed day, the 21st of a month (a Saturday), so the month holds 20 finished days on any
    /// date the benchmark is run.
    static func largeGroup(members count: Int, iterations: Int) async throws -> LargeGroup {
        let root = NSTemporaryDirectory() + "screenmates-bench-large-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await SQLiteGroupStore.open(at: root + "/group-store.sqlite")
        let local = try LocalStore.open(at: root + "/local.sqlite")
        let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!)
        let now = ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z")!
        let today = calendar.day(containing: now)
        var generator = SeededGenerator(seed: 7)
        func id(_ index: Int) -> UserID { try! UserID(validating: String(format: "m%07d", index)) }
        func profile(_ index: Int) -> MemberProfile {
            MemberProfile(
                userID: id(index), displayName: try! DisplayName(validating: "member_\(index)"),
                blocksToday: Int(generator.next() % 14), day: index % 23 == 0 ? today.adding(days: -1) : today,
                streak: Int(generator.next() % 40),
                lastActive: now.addingTimeInterval(-Double(generator.next() % 7200)),
                lastUpdated: now, version: 1)
        }
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: profile(0), now: now)
        for index in 1..<count {
            _ = try await store.join(code: group.code, member: profile(index), now: now)
        }
        // Every finished day of the week and the month, for every member.
        let first = min(
            LeaderboardPeriod.week.firstDay(containing: today), LeaderboardPeriod.month.firstDay(containing: today))
        var totals: [DayTotal] = []
        var day = first
        while day < today {
            for index in 0..<count {
                totals.append(
                    DayTotal(
                        userID: id(index), date: day, viceBlocks: Int(generator.next() % 14),
                        goalBlocks: 8, version: 1))
            }
            day = day.adding(days: 1)
        }
        for start in stride(from: 0, to: totals.count, by: 5000) {
            try await store.upsertDayTotals(Array(totals[start..<min(start + 5000, totals.count)]), code: group.code)
        }

        let reporter = GroupReporter(
            local: local, membership: GroupMembership(code: group.code, dailyGoalBlocks: 8), userID: id(0),
            clock: ManualClock(now))
        let summary = TodaySummary(
            date: today, ledger: DailyLedger.fold([], exchangeRate: 1), goal: 8, streak: .init(current: 3, best: 9),
            nextReset: calendar.nextReset(after: now))
        let me = LeaderboardMember(id: id(0), name: "member_0", blocks: 3, streak: 3, lastActive: now, isMe: true)
        var result = LargeGroup(
            members: count, totals: totals.count, fetchMillis: [], membersMillis: [], rankMillis: [], frameMillis: [])
        for _ in 0..<iterations {
            var start = ContinuousClock.now
            _ = try await store.members(code: group.code)
            result.membersMillis.append(milliseconds(ContinuousClock.now - start))
            start = ContinuousClock.now
            let snapshot = try await reporter.snapshot(from: store, today: today)
            result.fetchMillis.append(milliseconds(ContinuousClock.now - start))
            // Another member's block, then a look from the snapshot just read: only their row.
            var mate = snapshot.members[1 + result.changeLookMillis.count % (count - 1)]
            mate.blocksToday += 1
            mate.version += 1
            try await store.upsertProfile(mate)
            start = ContinuousClock.now
            let look = try await reporter.look(at: store, today: today, previous: snapshot)
            result.changeLookMillis.append(milliseconds(ContinuousClock.now - start))
            guard !look.whole, look.membersRead == [mate] else {
                throw BenchmarkError("a look after one member's change read \(look.membersRead.count) members")
            }
            start = ContinuousClock.now
            let boards = GroupLeaderboards.make(snapshot: snapshot, today: today, me: me, myHistory: [])
            result.rankMillis.append(milliseconds(ContinuousClock.now - start))
            start = ContinuousClock.now
            let data = DashboardContent(
                userName: "member_0", group: .init(code: group.code.value, memberCount: snapshot.members.count),
                calendar: calendar, now: now, clockSpeed: 1, today: summary, leaderboards: boards)
            let model = ScreensModel(screen: .dashboard, width: 120, height: 40, data: data)
            _ = ScreenRenderer.render(model, glyphs: .unicode)
            result.frameMillis.append(milliseconds(ContinuousClock.now - start))
        }
        return result
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
