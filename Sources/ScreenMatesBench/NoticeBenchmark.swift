import Foundation
import Glibc

/// Notices: how soon a toast is on screen after the block that crosses a threshold is
/// committed.
enum NoticeBenchmark {
    /// The evening every process of a run starts its clock at.
    static let startAt = "2026-11-21T18:00"

    /// A scenario of nothing but vice blocks from midnight, so the first blocks of the day are
    /// known: with a goal of 8, the sixth crosses 75 %.
    static func viceScenario(in directory: String) throws -> String {
        let path = directory + "/vice-from-midnight.json"
        let json = """
            { "name": "vice-from-midnight", "summary": "vice blocks from midnight",
              "steps": [ { "at": "00:00", "app": "tiktok", "category": "vice", "blocks": 8 } ] }
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Milliseconds from the commit of the sixth block of the day (the monitor's printed id) to
    /// the first bytes on the dashboard's terminal that hold the 75 % toast, over `runs` fresh
    /// homes. The blocks' scripted times (00:00 to 01:30) must be past on the app clock: every
    /// process here runs on a simulated clock from the same fixed evening (the first monitor and
    /// the dashboard start it, the second monitor follows the dashboard's), so any date and
    /// time of day gives the same run.
    static func thresholdToToast(binary: String, runs: Int) throws -> [Double] {
        var delays: [Double] = []
        for _ in 0..<runs {
            let home = try MonitorBenchmark.freshHome(binary, startAt: startAt)
            defer { try? FileManager.default.removeItem(atPath: home) }
            let scenario = try viceScenario(in: home)
            let environment = MonitorBenchmark.environment(home: home)
            let first = try ChildProcess(
                binary,
                [
                    "monitor", "--home", home, "--scenario", scenario, "--rate", "max", "--count", "5", "--seed", "1",
                    "--start-at", startAt,
                ],
                environment: environment)
            first.wait()
            let terminal = try MonitorBenchmark.startDashboard(binary: binary, home: home, startAt: startAt)
            terminal.read(for: 0.5)
            let sixth = try ChildProcess(
                binary,
                ["monitor", "--home", home, "--scenario", scenario, "--rate", "max", "--count", "6", "--seed", "1"],
                environment: environment)
            terminal.read(for: 2) { $0.contains("75 % of today") }
            sixth.wait()
            guard let committed = sixth.lines.last?.at else { continue }
            // The chunk that completes the toast's title.
            var seen: [UInt8] = []
            for chunk in terminal.output {
                seen += chunk.bytes
                if chunk.at >= committed, String(decoding: seen, as: UTF8.self).contains("75 % of today") {
                    delays.append(GroupBenchmark.milliseconds(chunk.at - committed))
                    break
                }
            }
            _ = terminal.terminate()
        }
        return delays
    }
}
