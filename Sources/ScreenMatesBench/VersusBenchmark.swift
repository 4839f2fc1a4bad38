import Foundation
import Glibc

/// ScreenMates' idle dashboard side by side with other full-screen terminal programs (htop,
/// top): each started alone on a pseudo-terminal of the same size, with the same environment,
/// for the same time; launch to first frame, CPU while idle, resident memory.
///
/// A first frame is over when the program's marker (text its first frame ends with) has been
/// written and nothing more comes for 50 ms: the time is that of the frame's last bytes, so
/// every program is timed by the same rule.
enum VersusBenchmark {
    /// A program to compare, as it is started.
    struct Peer {
        var name: String
        var program: String
        var arguments: [String]
        /// Text (escape sequences removed) that the first full frame contains.
        var marker: String
    }

    struct Result {
        var peer: Peer
        /// Launch to first frame, one per launch.
        var launchMillis: [Double]
        var idleSeconds: Double
        var idleCPUSeconds: Double
        var memory: ProcessMemory
    }

    static let rows: UInt16 = 40
    static let columns: UInt16 = 120

    /// The peers known by name; `nil` for a program that is not on `PATH`.
    static func peer(named name: String) -> Peer? {
        guard let program = lookUp(name) else { return nil }
        switch name {
        // htop's function-key bar, the last line it draws.
        case "htop": return Peer(name: name, program: program, arguments: [], marker: "Quit")
        // top's column headings; its frame is one write.
        case "top": return Peer(name: name, program: program, arguments: [], marker: "COMMAND")
        default: return Peer(name: name, program: program, arguments: [], marker: "")
        }
    }

    /// The dashboard on a home set up for the purpose: no group, nothing recorded yet.
    static func dashboard(binary: String, home: String) throws -> Peer {
        guard
            try ChildProcess.run(
                binary, ["setup", "--home", home, "--name", "bench"], environment(home: home)) == 0
        else { throw BenchmarkError("screenmates setup failed in \(home)") }
        return Peer(name: "screenmates", program: binary, arguments: ["--home", home, "dashboard"], marker: "q quit")
    }

    /// Every peer, launched `launches` times each (in turns) and then left idle for
    /// `idleSeconds` each, one after another.
    static func run(peers: [Peer], launches: Int, idleSeconds: Double, root: String) throws -> [Result] {
        var times = Array(repeating: [Double](), count: peers.count)
        for _ in 0..<launches {
            for (index, peer) in peers.enumerated() {
                let terminal = try start(peer, root: root)
                times[index].append(try firstFrame(terminal, peer: peer))
                _ = terminal.terminate()
            }
        }
        return try peers.enumerated().map { index, peer in
            let terminal = try start(peer, root: root)
            _ = try firstFrame(terminal, peer: peer)
            terminal.read(for: 1)
            let before = terminal.cpuSeconds
            terminal.read(for: idleSeconds)
            let cpu = terminal.cpuSeconds - before
            guard let memory = ProcessMemory(pid: terminal.pid) else {
                throw BenchmarkError("\(peer.name) ended while idle")
            }
            _ = terminal.terminate()
            return Result(
                peer: peer, launchMillis: times[index], idleSeconds: idleSeconds, idleCPUSeconds: cpu, memory: memory)
        }
    }

    /// The same environment for every peer: a home of its own (so no one's settings apply).
    static func environment(home: String) -> [String: String] { MonitorBenchmark.environment(home: home) }

    private static func start(_ peer: Peer, root: String) throws -> PseudoTerminal {
        let home = root + "/" + peer.name
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return try PseudoTerminal(
            program: peer.program, arguments: peer.arguments, environment: environment(home: home), rows: rows,
            columns: columns)
    }

    /// Milliseconds from the launch to the last bytes of the first frame.
    private static func firstFrame(_ terminal: PseudoTerminal, peer: Peer) throws -> Double {
        terminal.read(for: 10) { $0.contains(peer.marker) }
        guard terminal.plainText.contains(peer.marker), !terminal.output.isEmpty else {
            throw BenchmarkError("\(peer.name) drew no frame with \"\(peer.marker)\" within 10 s")
        }
        var chunks = 0
        let limit = ContinuousClock.now + .seconds(2)
        while terminal.output.count != chunks, ContinuousClock.now < limit {
            chunks = terminal.output.count
            terminal.read(for: 0.05)
        }
        return GroupBenchmark.milliseconds(terminal.output[chunks - 1].at - terminal.started)
    }

    private static func lookUp(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The table and the ratios, as printed.
    static func report(_ results: [Result], launches: Int) -> [String] {
        guard let first = results.first else { return [] }
        var lines = [
            "Side by side on a \(columns)x\(rows) pseudo-terminal, each alone, idle for \(format(first.idleSeconds, 0)) s "
                + "(launch: median of \(launches)):",
            "  program        launch to frame   CPU while idle           resident    anonymous   file pages",
        ]
        for result in results {
            let cpu = result.idleCPUSeconds
            lines.append(
                "  " + pad(result.peer.name, 14)
                    + pad(format(result.launchMillis.percentile(0.5)) + " ms", 18, left: true)
                    + pad("\(format(cpu * 1000)) ms (\(format(cpu / result.idleSeconds * 100, 3)) %)", 25, left: true)
                    + pad(mebibytes(result.memory.residentKiB), 12, left: true)
                    + pad(mebibytes(result.memory.anonymousKiB), 13, left: true)
                    + pad(mebibytes(result.memory.fileKiB), 13, left: true))
        }
        lines.append("Ratios, \(first.peer.name) ÷ each other program (below 1: \(first.peer.name) uses less):")
        for other in results.dropFirst() {
            func ratio(_ mine: Double, _ theirs: Double) -> String {
                theirs > 0 ? format(mine / theirs, 2) + "x" : "-"
            }
            lines.append(
                "  ÷ \(other.peer.name): CPU while idle \(ratio(first.idleCPUSeconds, other.idleCPUSeconds)), "
                    + "resident \(ratio(Double(first.memory.residentKiB), Double(other.memory.residentKiB))), "
                    + "anonymous \(ratio(Double(first.memory.anonymousKiB), Double(other.memory.anonymousKiB))), "
                    + "launch to frame "
                    + ratio(first.launchMillis.percentile(0.5), other.launchMillis.percentile(0.5)))
        }
        return lines
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return left ? fill + text : text + fill
    }
}
