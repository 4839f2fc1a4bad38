import Foundation
import Glibc

/// Where the memory of an idle dashboard and of a monitor goes: resident and anonymous pages
/// by mapping, the size of the binary, and whether it loaded any library of a Swift toolchain.
enum MemoryBenchmark {
    struct Sample {
        var label: String
        var memory: ProcessMemory
        var toolchainLibraries: [String]
        var threads: Int
    }

    /// The dashboard (120×40, no group) just started and idle, and two monitors, each measured
    /// after `seconds`.
    static func run(binary: String, seconds: Double) throws -> [Sample] {
        let home = try MonitorBenchmark.freshHome(binary)
        defer { try? FileManager.default.removeItem(atPath: home) }
        var samples: [Sample] = []
        let terminal = try MonitorBenchmark.startDashboard(binary: binary, home: home)
        // A second after its first frame, before it hands back the pages only start-up touched.
        samples.append(try sample("dashboard, 1 s after its first frame", pid: terminal.pid))
        terminal.read(for: seconds)
        samples.append(try sample("idle dashboard", pid: terminal.pid))
        _ = terminal.terminate()

        // The simulated monitor at its realistic pace waits for its next block; the terminal
        // source samples the foreground program once a second.
        for (label, arguments) in [
            ("monitor, simulated (waiting)", ["--source", "simulated"]),
            ("monitor, terminal", ["--source", "terminal"]),
        ] {
            let monitor = try ChildProcess(
                binary, ["monitor", "--home", home, "--quiet"] + arguments,
                environment: MonitorBenchmark.environment(home: home))
            Thread.sleep(forTimeInterval: seconds)
            if let measured = try? sample(label, pid: monitor.pid) { samples.append(measured) }
            monitor.send(SIGTERM)
            monitor.wait()
        }
        return samples
    }

    private static func sample(_ label: String, pid: pid_t) throws -> Sample {
        guard let memory = ProcessMemory(pid: pid) else { throw BenchmarkError("\(label) is not running") }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
        return Sample(
            label: label, memory: memory, toolchainLibraries: ProcessMemory.toolchainLibraries(pid: pid),
            threads: threads)
    }

    static func report(_ samples: [Sample], binary: String) -> [String] {
        let size = (try? FileManager.default.attributesOfItem(atPath: binary)[.size] as? Int) ?? 0
        var lines = ["Memory (\(binary), \(format(Double(size) / 1_048_576)) MiB on disk):"]
        for sample in samples {
            let memory = sample.memory
            lines.append(
                "  \(sample.label): resident \(mebibytes(memory.residentKiB)), anonymous "
                    + "\(mebibytes(memory.anonymousKiB)), file pages \(mebibytes(memory.fileKiB)), "
                    + "\(sample.threads) thread\(sample.threads == 1 ? "" : "s")")
            lines.append(
                "    Swift toolchain libraries loaded: "
                    + (sample.toolchainLibraries.isEmpty ? "none" : sample.toolchainLibraries.joined(separator: ", ")))
            for mapping in memory.mappings.prefix(8) {
                lines.append(
                    "    " + String(format: "%6d KiB (%5d anonymous)  ", mapping.residentKiB, mapping.anonymousKiB)
                        + mapping.name)
            }
        }
        return lines
    }
}
