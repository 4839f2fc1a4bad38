import Foundation
import Glibc

/// The real dashboard on a pseudo-terminal: launch to first frame, bytes written for an
/// unchanged frame, CPU and bytes while idle, resident memory.
enum DashboardBenchmark {
    struct Result {
        var firstFrameMillis: Double
        var firstFrameBytes: Int
        var unchangedRedrawBytes: Int?
        var fullRepaintBytes: Int?
        var idleSeconds: Double
        var idleCPUSeconds: Double
        /// The CPU of the idle window but its first `settling` seconds, in which the dashboard
        /// hands back the pages only start-up touched (once, three seconds after it starts).
        var settledCPUSeconds: Double
        var idleBytes: Int
        var residentKiB: Int
        var exitStatus: Int32
    }

    static func run(binary: String, idleSeconds: Double, demo: Bool) throws -> Result {
        let home = NSTemporaryDirectory() + "screenmates-bench-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = [
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": home, "PATH": "/usr/bin:/bin",
        ]
        guard try ChildProcess.run(binary, ["setup", "--home", home, "--name", "bench"], environment) == 0 else {
            throw POSIXError(.EINVAL)
        }
        var arguments = ["--home", home, "dashboard"]
        if demo { arguments += ["--demo", "--speed", "60"] }
        let terminal = try PseudoTerminal(
            program: binary, arguments: arguments, environment: environment, rows: 40, columns: 120)
        // The footer is the last row of the first frame.
        terminal.read(for: 10) { $0.contains("q quit") }
        let firstFrame = terminal.output.last.map { $0.at - terminal.started } ?? .zero
        let firstBytes = terminal.byteCount
        terminal.read(for: 1)

        // A key that changes nothing (scrolling a one-member leaderboard) must write nothing;
        // `r` repaints every cell. (With the demo's fast clock the screen really changes every
        // second, so neither is measured there.)
        var unchanged: Int?
        var repaint: Int?
        if !demo {
            let beforeKey = ContinuousClock.now
            terminal.send("j")
            terminal.read(for: 1)
            unchanged = terminal.bytes(after: beforeKey)
            let beforeRepaint = ContinuousClock.now
            terminal.send("r")
            terminal.read(for: 1)
            repaint = terminal.bytes(after: beforeRepaint)
        }

        let idleStart = ContinuousClock.now
        let cpuBefore = terminal.cpuSeconds
        terminal.read(for: min(settling, idleSeconds))
        let cpuSettled = terminal.cpuSeconds
        terminal.read(for: max(0, idleSeconds - settling))
        let cpu = terminal.cpuSeconds - cpuBefore
        let idleBytes = terminal.bytes(after: idleStart)
        let resident = terminal.residentKiB
        let status = terminal.terminate()
        return Result(
            firstFrameMillis: Double(firstFrame.components.seconds) * 1000 + Double(firstFrame.components.attoseconds)
                / 1e15, firstFrameBytes: firstBytes, unchangedRedrawBytes: unchanged, fullRepaintBytes: repaint,
            idleSeconds: idleSeconds, idleCPUSeconds: cpu, settledCPUSeconds: terminal.cpuSeconds - cpuSettled,
            idleBytes: idleBytes, residentKiB: resident,
            exitStatus: status)
    }

    /// The start of the idle window left out of `settledCPUSeconds`.
    static let settling = 5.0
}
