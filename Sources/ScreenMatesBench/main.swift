import ArgumentParser
import Foundation
import ScreenMatesPostgresGroupStore

// `screenmates-bench`: the measurements the Performance article quotes (this target's catalogue).
//
//   swift build -c release && .build/release/screenmates-bench [--idle-seconds 60] [--members 1000]
//   .build/release/screenmates-bench --only postgres --postgres URL   (or SCREENMATES_BENCH_POSTGRES)
//   .build/release/screenmates-bench --only scale --postgres URL [--pooler URL] [--scale-members 100,1000]
//   .build/release/screenmates-bench --versus htop,top [--idle-seconds 30] [--launches 5]
//
// Timings come from a release build; each figure says how it was taken.

do {
    try await ScreenMatesBenchCommand.parse().measure()
} catch {
    ScreenMatesBenchCommand.exit(withError: error)
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

/// The benchmark's command line: which parts to run, and how long or how large. Without
/// `--only`, every part but `versus`, `memory`, `demo-notices` (and `postgres` without a server).
struct ScreenMatesBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenmates-bench",
        abstract: "The measurements the Performance article quotes, on a release build of screenmates.")

    /// A part of the benchmark.
    enum Part: String, CaseIterable, ExpressibleByArgument {
        case frame, dashboard, monitor, group, notices, memory, versus, postgres, scale
        case largeGroup = "large-group"
        case demoNotices = "demo-notices"
    }

    @Option(help: "Run only this part.")
    var only: Part?

    @Option(help: "How long an idle program is watched, in seconds.")
    var idleSeconds = 60.0

    @Option(help: "The members of the leaderboard whose frame is built.")
    var members = 1000

    @Option(help: "How many times the frame is built.")
    var iterations = 200

    @Option(help: "The PostgreSQL server for the group store's part (else SCREENMATES_BENCH_POSTGRES).")
    var postgres: String?

    @Option(help: "The members of the group the PostgreSQL part fetches.")
    var groupMembers = 10_000

    @Option(help: "A connection pooler in front of the --postgres server (PgBouncer), for the scale part.")
    var pooler: String?

    @Option(help: "The scale part's member counts, comma-separated: one run each, directly and through --pooler.")
    var scaleMembers = "100,1000"

    @Option(help: "How the scale part's members reach the server, comma-separated: direct, pooler.")
    var routes = "direct,pooler"

    @Option(help: "The members of each group in the scale part (the last may have fewer).")
    var groupSize = 50

    @Option(help: "The compressed day the scale part's reports are spread over, in seconds.")
    var scaleSeconds = 60.0

    @Option(help: "The profile reports each member sends over the scale part's day.")
    var reports = 3

    @Option(
        help: """
            Whether the scale part's members exchange the games at each change as the dashboard does: \
            none, settle-always (the week's settlement first every time), settle-own (only after their own \
            writes and once a day, the games read at every change), marked (settling only after finished \
            days and once a day, the games read only when their own change number moved, as the dashboard \
            does now).
            """)
    var scaleGames = "none"

    @Option(help: "Programs to measure beside the dashboard, comma-separated (runs the versus part).")
    var versus: [String] = []

    @Option(help: "How many launches each program of the versus part gets (at least 1).")
    var launches = 5

    @Option(help: "The screenmates binary to measure (else the one next to this program).")
    var binary: String?

    /// On the main actor, as the program's top level is: the measurements block their thread
    /// (reading a pseudo-terminal, waiting for a child), which must not be one of the few the
    /// children's tasks run on.
    @MainActor
    func measure() async throws {
        let executable = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let binary = self.binary ?? executable.deletingLastPathComponent().appendingPathComponent("screenmates").path
        let versus = self.versus.flatMap { $0.split(separator: ",").map(String.init) }
        let launches = max(1, self.launches)
        let postgresURL = postgres ?? ProcessInfo.processInfo.environment["SCREENMATES_BENCH_POSTGRES"]
        let only = self.only ?? (versus.isEmpty ? nil : .versus)

        if only == .versus {
            let root = NSTemporaryDirectory() + "screenmates-bench-versus-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: root) }
            var peers = [try VersusBenchmark.dashboard(binary: binary, home: root + "/screenmates-home")]
            for name in versus.isEmpty ? ["htop", "top"] : versus {
                guard let peer = VersusBenchmark.peer(named: name) else {
                    print("(\(name) is not installed)")
                    continue
                }
                peers.append(peer)
            }
            let results = try VersusBenchmark.run(
                peers: peers, launches: launches, idleSeconds: idleSeconds, root: root)
            for line in VersusBenchmark.report(results, launches: launches) { print(line) }
        }

        if only == .memory {
            let samples = try MemoryBenchmark.run(binary: binary, seconds: 5)
            for line in MemoryBenchmark.report(samples, binary: binary) { print(line) }
        }

        if only == .demoNotices {
            let timeline = try DemoNoticeBenchmark.run(binary: binary)
            print(
                "The demo's notices (dashboard --demo --scenario evening-binge --speed 60 --start-at 2026-11-21T18:00):"
            )
            for (title, seconds) in timeline {
                print("  \(title): after \(format(seconds, 0)) s")
            }
        }

        if only == nil || only == .frame {
            let frame = FrameBenchmark.run(members: members, width: 120, height: 40, iterations: iterations)
            print(
                "Frame at \(frame.width)x\(frame.height), leaderboard of \(frame.members) members, \(iterations) runs:")
            for (label, values) in [
                ("rank members      ", frame.rankMicros), ("build frame       ", frame.renderMicros),
                ("diff vs last frame", frame.diffMicros),
            ] {
                print(
                    "  \(label)  median \(format(values.percentile(0.5))) us   p99 \(format(values.percentile(0.99))) us"
                )
            }
            print("  runs to write for an unchanged frame: \(frame.unchangedRuns)")
        }

        if only == nil || only == .dashboard {
            for demo in [false, true] {
                let result = try DashboardBenchmark.run(binary: binary, idleSeconds: idleSeconds, demo: demo)
                print("")
                print(
                    demo
                        ? "Dashboard with the demo monitor at --speed 60, 120x40 pseudo-terminal:"
                        : "Dashboard, idle, 120x40 pseudo-terminal:")
                print(
                    "  launch to first full frame: \(format(result.firstFrameMillis)) ms (\(result.firstFrameBytes) bytes)"
                )
                if let unchanged = result.unchangedRedrawBytes {
                    print("  bytes written after a key that changes nothing: \(unchanged)")
                }
                if let repaint = result.fullRepaintBytes { print("  bytes written by a full repaint (r): \(repaint)") }
                let percent = result.idleCPUSeconds / result.idleSeconds * 100
                print(
                    "  CPU over \(format(result.idleSeconds, 0)) s: \(format(result.idleCPUSeconds * 1000, 1)) ms (\(format(percent, 3)) %)"
                )
                let settled = result.idleSeconds - DashboardBenchmark.settling
                print(
                    "    over its last \(format(settled, 0)) s, after start-up's pages were handed back: "
                        + "\(format(result.settledCPUSeconds * 1000, 1)) ms"
                )
                print("  bytes written over \(format(result.idleSeconds, 0)) s: \(result.idleBytes)")
                print("  resident memory: \(format(Double(result.residentKiB) / 1024)) MiB")
                print("  exit status after SIGTERM: \(result.exitStatus)")
            }
        }

        if only == nil || only == .monitor {
            print("")
            print("Monitor processes (--rate max, events committed per second, acknowledged ids counted):")
            let one = try MonitorBenchmark.throughput(binary: binary, writers: 1, count: 20_000)
            print("  one monitor, 20,000 events: \(format(one, 0)) events/s")
            let four = try MonitorBenchmark.throughput(binary: binary, writers: 4, count: 5_000)
            print("  four monitors at once, 5,000 events each: \(format(four, 0)) events/s in all")
            let delays = try MonitorBenchmark.latency(binary: binary, events: 240, rate: 4)
            print("  commit to dashboard screen, \(delays.count) events at 4/s:")
            print(
                "    median \(format(delays.percentile(0.5))) ms, p99 \(format(delays.percentile(0.99))) ms, "
                    + "max \(format(delays.max() ?? 0)) ms")
            let slow = try MonitorBenchmark.cpuWithSlowMonitor(binary: binary, seconds: max(120, idleSeconds))
            let seconds = max(120, idleSeconds)
            print(
                "  dashboard CPU over \(format(seconds, 0)) s while a monitor writes one event a minute "
                    + "(\(slow.events) written): \(format(slow.cpu * 1000, 1)) ms (\(format(slow.cpu / seconds * 100, 3)) %)"
            )
        }

        if only == nil || only == .group {
            print("")
            print("Groups (a shared group-store file, two home directories, 120x40 pseudo-terminals):")
            let delays = try GroupBenchmark.latency(binary: binary, events: 200, rate: 2)
            print(
                "  a block committed in ana's home to bo's screen (through both dashboards), events at 2/s, "
                    + "the \(delays.count) vice blocks up to the goal:")
            print(
                "    median \(format(delays.percentile(0.5))) ms, p99 \(format(delays.percentile(0.99))) ms, "
                    + "max \(format(delays.max() ?? 0)) ms")
            let quiet = try GroupBenchmark.quietGroupCPU(binary: binary, seconds: idleSeconds)
            print(
                "  dashboard CPU over \(format(idleSeconds, 0)) s watching a quiet group: \(format(quiet * 1000, 1)) ms "
                    + "(\(format(quiet / idleSeconds * 100, 3)) %)")
        }

        if only == nil || only == .group || only == .largeGroup {
            let large = try await GroupBenchmark.largeGroup(members: 10_000, iterations: 20)
            print("")
            print("A group of \(large.members) members with \(large.totals) day totals in a group-store file, 20 runs:")
            for (label, values) in [
                ("fetch the members alone              ", large.membersMillis),
                ("fetch group, members, week/month sums", large.fetchMillis),
                ("a member's change, then a look      ", large.changeLookMillis),
                ("rank today, week and month           ", large.rankMillis),
                ("build the 120x40 frame               ", large.frameMillis),
            ] {
                print(
                    "  \(label)  median \(format(values.percentile(0.5))) ms   p99 \(format(values.percentile(0.99))) ms"
                )
            }
        }

        if only == nil || only == .notices {
            print("")
            let delays = try NoticeBenchmark.thresholdToToast(binary: binary, runs: 20)
            print("Notices: the block that crosses 75 % committed to its toast on screen, \(delays.count) runs:")
            print(
                "  median \(format(delays.percentile(0.5))) ms, p99 \(format(delays.percentile(0.99))) ms, "
                    + "max \(format(delays.max() ?? 0)) ms")
        }

        if only == .postgres || (only == nil && postgresURL != nil) {
            print("")
            guard let postgresURL else {
                print("The PostgreSQL group store needs a server: --postgres URL or SCREENMATES_BENCH_POSTGRES.")
                throw ExitCode(64)
            }
            print("PostgreSQL group store (\(PostgresAddress.withoutPassword(postgresURL))):")
            let result = try await PostgresBenchmark.run(
                url: postgresURL, changes: 200, upserts: 4000, members: groupMembers)
            func line(_ label: String, _ values: [Double]) {
                print(
                    "  \(label): median \(format(values.percentile(0.5))) ms, p99 \(format(values.percentile(0.99))) ms, "
                        + "max \(format(values.max() ?? 0)) ms (\(values.count) runs)")
            }
            line("one client's upsert → the other's change stream", result.signalMillis)
            line("one client's upsert → the other has re-read the group", result.reReadMillis)
            line("listener's connection killed → its stream yields again", result.reconnectMillis)
            print("  profile upserts, one client, one at a time: \(format(result.upsertsPerSecondOneClient, 0))/s")
            print(
                "  profile upserts, eight clients at once: \(format(result.upsertsPerSecondEightClients, 0))/s in all")
            line("fetch a group of \(result.fetchMembers) members", result.fetchMillis)
            line("… the server's part (EXPLAIN ANALYZE's execution time)", result.serverMillis)
            line("one member's change, then the change marks and what changed (one row)", result.changedMillis)
            let delays = try GroupBenchmark.latency(binary: binary, events: 100, rate: 2, server: postgresURL)
            line("a block committed in ana's home to bo's screen, through this server", delays)
        }

        if only == .scale {
            guard let postgresURL else {
                print("The scale part needs a server: --postgres URL (its superuser) or SCREENMATES_BENCH_POSTGRES.")
                throw ExitCode(64)
            }
            try await measureScale(server: try PostgresAddress(url: postgresURL))
        }
    }

    /// The scale part: one run per member count and route, each with a report of its own.
    @MainActor
    func measureScale(server: PostgresAddress) async throws {
        let pooler = try self.pooler.map { try PostgresAddress(url: $0) }
        let counts = scaleMembers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let routes = self.routes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for members in counts {
            for route in routes {
                let through: PostgresAddress?
                switch route {
                case "direct": through = nil
                case "pooler":
                    guard let pooler else {
                        print("(no --pooler: the run through one is skipped)")
                        continue
                    }
                    through = pooler
                default: throw ValidationError("unknown route \(route): direct or pooler")
                }
                guard let games = ScaleBenchmark.Games(rawValue: scaleGames) else {
                    throw ValidationError(
                        "unknown --scale-games \(scaleGames): none, settle-always, settle-own or marked")
                }
                let plan = ScaleBenchmark.Plan(
                    members: members, groupSize: max(2, groupSize), seconds: scaleSeconds, reports: max(1, reports),
                    games: games)
                let label = through.map { "through \($0.description)" } ?? "directly to \(server.description)"
                print("")
                do {
                    let result = try await ScaleBenchmark.run(
                        plan: plan, route: ScaleBenchmark.Route(server: server, pooler: through))
                    for line in ScaleBenchmark.report(result, route: label) { print(line) }
                } catch {
                    print("Scale, \(label): \(members) members: the run failed: \(error)")
                }
            }
        }
    }

    func run() async throws {
        try await measure()
    }
}
