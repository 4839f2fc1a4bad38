import Foundation
import Glibc

/// The demo of the notices (the README's screenshot), timed: the dashboard with the demo monitor playing the
/// `evening-binge` day at 60 times the real pace from a fixed instant, so the same notices come
/// at the same moments on any date and at any time of day.
enum DemoNoticeBenchmark {
    static let startAt = "2026-11-21T18:00"
    /// The notices' titles, in the order they must come.
    static let titles = ["75 % of today's limit", "90 % of today's limit", "Over today's limit", "A new day"]

    /// Seconds from the first frame (the app clock starts there) to each notice on the screen.
    static func run(binary: String) throws -> [(title: String, seconds: Double)] {
        let home = try MonitorBenchmark.freshHome(binary, startAt: startAt)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let terminal = try PseudoTerminal(
            program: binary,
            arguments: [
                "--home", home, "dashboard", "--demo", "--scenario", "evening-binge", "--speed", "60", "--start-at",
                startAt,
            ],
            environment: MonitorBenchmark.environment(home: home), rows: 40, columns: 120)
        defer { _ = terminal.terminate() }
        terminal.read(for: 10) { $0.contains("q quit") }
        guard let shown = terminal.output.last?.at else { throw BenchmarkError("the dashboard drew nothing") }
        var timeline: [(title: String, seconds: Double)] = []
        var seen = ""
        var next = terminal.output.count
        let deadline = ContinuousClock.now + .seconds(8 * 60)
        // Each title is looked for in what came after the one before, so each is found once, in order.
        search: for title in titles {
            while ContinuousClock.now < deadline {
                while next < terminal.output.count {
                    let chunk = terminal.output[next]
                    next += 1
                    seen += String(decoding: chunk.bytes, as: UTF8.self)
                    if seen.contains(title) {
                        timeline.append((title, GroupBenchmark.milliseconds(chunk.at - shown) / 1000))
                        seen = ""
                        continue search
                    }
                }
                terminal.read(for: 0.25)
            }
        }
        guard timeline.count == titles.count else {
            throw BenchmarkError("only \(timeline.map(\.title)) came within 8 minutes")
        }
        return timeline
    }
}
