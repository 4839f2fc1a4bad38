import Foundation
import Glibc
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesPostgresGroupStore

/// The server's and the pooler's figures a sitting reads, and its report.
extension ScaleBenchmark {
    /// The rows a look reads as the server sends them (DataRow messages in binary format: a
    /// 7-byte header, then each column's 4-byte length and its value; NULL has no value).
    enum RowBytes {
        static let header = 7
        static func text(_ value: String) -> Int { 4 + value.utf8.count }
        static let int8 = 12
        static let null = 4
        static let bool = 5
        /// `change_marks`: two int8.
        static let changeMark = header + 2 * int8
        /// `find_group`: outcome, retry_after (NULL), goal, member count, created at.
        static let group = header + text("found") + null + 3 * int8
        /// `group_members`: known, id, name, blocks, day, streak, last active, last updated, version.
        static func member(_ profile: MemberProfile) -> Int {
            header + bool + text(profile.userID.value) + text(profile.displayName.value) + 3 * int8
                + (profile.lastActive == nil ? null : int8) + 2 * int8
        }
        /// `group_block_sums`: known, id, blocks, and four NULLs (a row every client accepts).
        static func blockSum(_ id: UserID) -> Int {
            header + bool + text(id.value) + int8 + 4 * null
        }
    }

    // MARK: - The server's figures

    /// Samples the connections to `database` every 0.5 s until cancelled; returns the most seen.
    final class ConnectionSampler: Sendable {
        func sample(_ connection: PostgresConnection, database: String) async -> Int {
            var most = 0
            let logger = Logger(label: "bench")
            while !Task.isCancelled {
                if let rows = try? await connection.query(
                    "SELECT count(*)::int8 FROM pg_stat_activity WHERE datname = \(database)", logger: logger
                ).collect(), let count = try? rows.first?.decode(Int64.self) {
                    most = max(most, Int(count))
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
            return most
        }
    }

    /// The server's postmaster: the parent of the admin connection's backend.
    static func postmasterID(_ connection: PostgresConnection) async throws -> Int32 {
        let rows = try await connection.query("SELECT pg_backend_pid()::int8", logger: Logger(label: "bench"))
            .collect()
        guard let backend = try rows.first?.decode(Int64.self), let stat = processStat(Int32(backend)) else {
            throw BenchmarkError("the server's processes are not on this machine")
        }
        return stat.parent
    }

    /// The CPU of the server's processes so far: the postmaster's own and that of its children
    /// that ended (cutime, cstime), and of those that run.
    static func serverCPU(postmaster: Int32) -> Double {
        guard let main = processStat(postmaster) else { return 0 }
        var ticks = main.ticks + main.childTicks
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let stat = processStat(pid), stat.parent == postmaster else { continue }
            ticks += stat.ticks
        }
        return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The CPU of one process so far (its own, not its children's).
    static func processCPU(_ pid: Int32) -> Double {
        Double(processStat(pid)?.ticks ?? 0) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The pooler's process, from the pid file beside its socket (as `.ci/pgbouncer` writes it).
    static func poolerProcess(_ address: PostgresAddress) -> Int32? {
        guard case .socket(let directory, _) = address.endpoint,
            let text = try? String(contentsOfFile: directory + "/pgbouncer.pid", encoding: .utf8)
        else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Fields of `/proc/<pid>/stat`: parent, utime+stime, cutime+cstime (clock ticks).
    static func processStat(_ pid: Int32) -> (parent: Int32, ticks: Int, childTicks: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state, ppid, … utime is the 12th field.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14, let parent = Int32(fields[1]), let user = Int(fields[11]),
            let system = Int(fields[12]), let childUser = Int(fields[13]), let childSystem = Int(fields[14])
        else { return nil }
        return (parent, user + system, childUser + childSystem)
    }

    static func millis(_ duration: Duration) -> Double { seconds(duration) * 1000 }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: - Report

    static func report(_ result: Result, route: String) -> [String] {
        let plan = result.plan
        var lines = [
            "Scale, \(route): \(plan.members) members in \(result.groups) groups of up to \(plan.groupSize), "
                + "\(plan.reports) reports each over \(format(plan.seconds, 0)) s (measured \(format(result.measuredSeconds, 0)) s)",
            "  members watching (first look done): \(result.watching) of \(plan.members), "
                + "the day starting \(format(result.warmUpSeconds, 0)) s after the first member",
            "  server connections (most in pg_stat_activity for the run's database, every 0.5 s): \(result.serverConnections)",
            "  writes returned: \(result.writes) (\(result.profileWrites) profiles, \(result.writes - result.profileWrites) day totals); "
                + "failed: \(result.failedWrites.total)"
                + (result.failedWrites.total > 0 ? " — " + result.failedWrites.summary : ""),
        ]
        let latency = result.latencyMillis
        lines.append(
            "  profile written → read by each mate: median \(format(latency.percentile(0.5), 0)) ms, "
                + "p99 \(format(latency.percentile(0.99), 0)) ms, max \(format(latency.max() ?? 0, 0)) ms "
                + "(\(latency.count) pairs; \(result.unseen) never seen)")
        lines.append(
            "  looks (change marks, then what changed since the last look): \(result.looks), "
                + "\(result.wholeLooks) of them reading the group whole; "
                + "failed: \(result.failedLooks.total)"
                + (result.failedLooks.total > 0 ? " — " + result.failedLooks.summary : ""))
        let lookTimes = result.lookMillis
        lines.append(
            "  a look that found a change, first call to last answer: median \(format(lookTimes.percentile(0.5), 0)) ms, "
                + "p99 \(format(lookTimes.percentile(0.99), 0)) ms, max \(format(lookTimes.max() ?? 0, 0)) ms")
        let perMate = Double(max(1, result.mateWrites))
        lines.append(
            "  each change costs each other member: \(format(Double(result.lookRows) / perMate, 1)) rows, "
                + "\(format(Double(result.lookBytes) / perMate / 1024, 1)) KiB of rows "
                + "(\(result.lookRows) rows, \(result.lookBytes / 1024) KiB over \(result.mateWrites) write × mate)")
        let span = max(result.measuredSeconds, 1)
        var cpu =
            "  server CPU: \(format(result.serverCPUSeconds, 1)) s (\(format(result.serverCPUSeconds / span * 100, 0)) % of one core)"
        if let pooler = result.poolerCPUSeconds {
            cpu += "; PgBouncer CPU: \(format(pooler, 1)) s (\(format(pooler / span * 100, 0)) % of one core)"
        }
        cpu += "; the members' side (this process): \(format(result.clientCPUSeconds, 1)) s"
        lines.append(cpu)
        let perMember = Double(result.serverCalls) / Double(max(1, plan.members)) / span
        lines.append(
            "  calls to the server's functions: \(result.serverCalls), \(format(perMember * 2, 2)) per member every 2 s "
                + "(writes included)")
        if plan.games != .none {
            lines.append(
                "  the games (\(plan.games.rawValue)): \(result.gameExchanges) exchanges, "
                    + "\(result.settlements) of them settling the weeks first")
        }
        return lines
    }
}
