import Foundation
import ScreenMatesPostgresGroupStore

// `screenmates-bench`: the measurements quoted in the README.
//
//   swift build -c release && .build/release/screenmates-bench [--idle-seconds 60] [--members 1000]
//   .build/release/screenmates-bench --only postgres --postgres URL   (or SCREENMATES_BENCH_POSTGRES)
//   .build/release/screenmates-bench --versus htop,top [--idle-seconds 30] [--launches 5]
//
// Timings come from a release build; each figure says how it was taken.

var idleSeconds = 60.0
var members = 1000
var iterations = 200
var only: String?
var postgresURL = ProcessInfo.processInfo.environment["SCREENMATES_BENCH_POSTGRES"]
var groupMembers = 10_000
var versus: [String] = []
var launches = 5
var binaryOption: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--idle-seconds": idleSeconds = Double(arguments.popFirst() ?? "") ?? idleSeconds
    case "--members": members = Int(arguments.popFirst() ?? "") ?? members
    case "--iterations": iterations = Int(arguments.popFirst() ?? "") ?? iterations
    case "--only": only = arguments.popFirst()
    case "--postgres": postgresURL = arguments.popFirst()
    case "--group-members": groupMembers = Int(arguments.popFirst() ?? "") ?? groupMembers
    case "--versus": versus += (arguments.popFirst() ?? "").split(separator: ",").map(String.init)
    case "--launches": launches = max(1, Int(arguments.popFirst() ?? "") ?? launches)
    case "--binary": binaryOption = arguments.popFirst()
    default:
        print(
            "usage: screenmates-bench [--only frame|dashboard|monitor|group|large-group|notices|demo-notices|memory|"
                + "versus|postgres] [--idle-seconds N] [--members N] [--iterations N] [--postgres URL] "
                + "[--group-members N] [--versus PROGRAM,…] [--launches N] [--binary PATH]"
        )
        exit(64)
    }
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

let executable = URL(
    fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0])
let binary = binaryOption ?? executable.deletingLastPathComponent().appendingPathComponent("screenmates").path
if !versus.isEmpty && only == nil { only = "versus" }

if only == "versus" {
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
    let results = try VersusBenchmark.run(peers: peers, launches: launches, idleSeconds: idleSeconds, root: root)
    for line in VersusBenchmark.report(results, launches: launches) { print(line) }
}

if only == "memory" {
    let samples = try MemoryBenchmark.run(binary: binary, seconds: 5)
    for line in MemoryBenchmark.report(samples, binary: binary) { print(line) }
}

if only == "demo-notices" {
    let timeline = try DemoNoticeBenchmark.run(binary: binary)
    print("The demo's notices (dashboard --demo --scenario evening-binge --speed 60 --start-at 2026-11-21T18:00):")
    for (title, seconds) in timeline {
        print("  \(title): after \(format(seconds, 0)) s")
    }
}

if only == nil || only == "frame" {
    let frame = FrameBenchmark.run(members: members, width: 120, height: 40, iterations: iterations)
    print("Frame at \(frame.width)x\(frame.height), leaderboard of \(frame.members) members, \(iterations) runs:")
    for (label, values) in [
        ("rank members      ", frame.rankMicros), ("build frame       ", frame.renderMicros),
        ("diff vs last frame", frame.diffMicros),
    ] {
        print("  \(label)  median \(format(values.percentile(0.5))) us   p99 \(format(values.percentile(0.99))) us")
    }
    print("  runs to write for an unchanged frame: \(frame.unchangedRuns)")
}

if only == nil || only == "dashboard" {
    for demo in [false, true] {
        let result = try DashboardBenchmark.run(binary: binary, idleSeconds: idleSeconds, demo: demo)
        print("")
        print(
            demo
                ? "Dashboard with the demo monitor at --speed 60, 120x40 pseudo-terminal:"
                : "Dashboard, idle, 120x40 pseudo-terminal:")
        print("  launch to first full frame: \(format(result.firstFrameMillis)) ms (\(result.firstFrameBytes) bytes)")
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

if only == nil || only == "monitor" {
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
            + "(\(slow.events) written): \(format(slow.cpu * 1000, 1)) ms (\(format(slow.cpu / seconds * 100, 3)) %)")
}

if only == nil || only == "group" {
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

if only == nil || only == "group" || only == "large-group" {
    let large = try await GroupBenchmark.largeGroup(members: 10_000, iterations: 20)
    print("")
    print("A group of \(large.members) members with \(large.totals) day totals in a group-store file, 20 runs:")
    for (label, values) in [
        ("fetch the members alone              ", large.membersMillis),
        ("fetch group, members, week/month sums", large.fetchMillis),
        ("rank today, week and month           ", large.rankMillis),
        ("build the 120x40 frame               ", large.frameMillis),
    ] {
        print("  \(label)  median \(format(values.percentile(0.5))) ms   p99 \(format(values.percentile(0.99))) ms")
    }
}

if only == nil || only == "notices" {
    print("")
    let delays = try NoticeBenchmark.thresholdToToast(binary: binary, runs: 20)
    print("Notices: the block that crosses 75 % committed to its toast on screen, \(delays.count) runs:")
    print(
        "  median \(format(delays.percentile(0.5))) ms, p99 \(format(delays.percentile(0.99))) ms, "
            + "max \(format(delays.max() ?? 0)) ms")
}

if only == "postgres" || (only == nil && postgresURL != nil) {
    print("")
    guard let postgresURL else {
        print("The PostgreSQL group store needs a server: --postgres URL or SCREENMATES_BENCH_POSTGRES.")
        exit(64)
    }
    print("PostgreSQL group store (\(PostgresAddress.withoutPassword(postgresURL))):")
    let result = try await PostgresBenchmark.run(url: postgresURL, changes: 200, upserts: 4000, members: groupMembers)
    func line(_ label: String, _ values: [Double]) {
        print(
            "  \(label): median \(format(values.percentile(0.5))) ms, p99 \(format(values.percentile(0.99))) ms, "
                + "max \(format(values.max() ?? 0)) ms (\(values.count) runs)")
    }
    line("one client's upsert → the other's change stream", result.signalMillis)
    line("one client's upsert → the other has re-read the group", result.reReadMillis)
    line("listener's connection killed → its stream yields again", result.reconnectMillis)
    print("  profile upserts, one client, one at a time: \(format(result.upsertsPerSecondOneClient, 0))/s")
    print("  profile upserts, eight clients at once: \(format(result.upsertsPerSecondEightClients, 0))/s in all")
    line("fetch a group of \(result.fetchMembers) members", result.fetchMillis)
    line("… the server's part (EXPLAIN ANALYZE's execution time)", result.serverMillis)
    let delays = try GroupBenchmark.latency(binary: binary, events: 100, rate: 2, server: postgresURL)
    line("a block committed in ana's home to bo's screen, through this server", delays)
}
