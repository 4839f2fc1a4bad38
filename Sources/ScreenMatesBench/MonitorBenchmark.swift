import Foundation
import Glibc

/// The monitor as its own process: how fast it commits, how soon an open dashboard shows a
/// commit, and what a dashboard costs while a monitor writes now and then.
enum MonitorBenchmark {
    /// What every program the benchmark starts gets: a terminal type, a UTF-8 locale, a home of
    /// its own, and `SCREENMATES_ASSETS` when the benchmark was given it (for a binary installed
    /// outside the source tree).
    static func environment(home: String) -> [String: String] {
        var environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": home, "PATH": "/usr/bin:/bin"]
        environment["SCREENMATES_ASSETS"] = ProcessInfo.processInfo.environment["SCREENMATES_ASSETS"]
        return environment
    }

    /// A home set up for the benchmark; with `startAt`, on a simulated clock starting there (so
    /// commands given the same `--start-at` are not refused as going back into its past).
    static func freshHome(_ binary: String, startAt: String? = nil) throws -> String {
        let home = NSTemporaryDirectory() + "screenmates-bench-" + UUID().uuidString
        let clock = startAt.map { ["--start-at", $0] } ?? []
        guard
            try ChildProcess.run(
                binary, ["setup", "--home", home, "--name", "bench"] + clock, environment(home: home)) == 0
        else { throw BenchmarkError("screenmates setup failed in \(home)") }
        return home
    }

    /// Events per second committed by `writers` monitors at `--rate max`, each writing `count`.
    static func throughput(binary: String, writers: Int, count: Int) throws -> Double {
        let home = try freshHome(binary)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let start = ContinuousClock.now
        let processes = try (0..<writers).map { index in
            try ChildProcess(
                binary, ["monitor", "--home", home, "--rate", "max", "--count", "\(count)", "--seed", "\(index + 1)"],
                environment: environment(home: home))
        }
        for process in processes { process.wait() }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let acknowledged = processes.reduce(0) { $0 + $1.lines.count }
        return Double(acknowledged) / elapsed
    }

    /// The dashboard on a 120×40 pseudo-terminal, once its first frame is drawn.
    static func startDashboard(binary: String, home: String, startAt: String? = nil) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(
            program: binary, arguments: ["--home", home, "dashboard"] + (startAt.map { ["--start-at", $0] } ?? []),
            environment: environment(home: home), rows: 40, columns: 120)
        terminal.read(for: 10) { $0.contains("q quit") }
        terminal.read(for: 1)
        return terminal
    }

    /// Milliseconds from a monitor's commit (its printed id) to the next bytes the dashboard
    /// writes to its terminal, for each of `events` events written `rate` per second.
    static func latency(binary: String, events: Int, rate: Double) throws -> [Double] {
        let home = try freshHome(binary)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let terminal = try startDashboard(binary: binary, home: home)
        let monitor = try ChildProcess(
            binary, ["monitor", "--home", home, "--rate", "\(rate)", "--count", "\(events)", "--seed", "77"],
            environment: environment(home: home))
        terminal.read(for: Double(events) / rate + 3)
        monitor.wait()
        let output = terminal.output
        var delays: [Double] = []
        for commit in monitor.lines {
            guard let shown = output.first(where: { $0.at >= commit.at }) else { continue }
            let delay = shown.at - commit.at
            delays.append(Double(delay.components.seconds) * 1000 + Double(delay.components.attoseconds) / 1e15)
        }
        _ = terminal.terminate()
        return delays
    }

    /// CPU seconds the dashboard uses over `seconds` while a monitor writes one event a minute.
    static func cpuWithSlowMonitor(binary: String, seconds: Double) throws -> (cpu: Double, events: Int) {
        let home = try freshHome(binary)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let terminal = try startDashboard(binary: binary, home: home)
        let monitor = try ChildProcess(
            binary, ["monitor", "--home", home, "--rate", "\(1.0 / 60)", "--seed", "5"],
            environment: environment(home: home))
        let before = terminal.cpuSeconds
        terminal.read(for: seconds)
        let cpu = terminal.cpuSeconds - before
        monitor.send(SIGTERM)
        monitor.wait()
        _ = terminal.terminate()
        return (cpu, monitor.lines.count)
    }
}
