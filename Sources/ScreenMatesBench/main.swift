import Foundation

// `screenmates-bench`: the measurements quoted in the README.
//
//   swift build -c release && .build/release/screenmates-bench [--idle-seconds 60] [--members 1000]
//
// Timings come from a release build; each figure says how it was taken.

var idleSeconds = 60.0
var members = 1000
var iterations = 200
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--idle-seconds": idleSeconds = Double(arguments.popFirst() ?? "") ?? idleSeconds
    case "--members": members = Int(arguments.popFirst() ?? "") ?? members
    case "--iterations": iterations = Int(arguments.popFirst() ?? "") ?? iterations
    default:
        print("usage: screenmates-bench [--idle-seconds N] [--members N] [--iterations N]")
        exit(64)
    }
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

let frame = FrameBenchmark.run(members: members, width: 120, height: 40, iterations: iterations)
print("Frame at \(frame.width)x\(frame.height), leaderboard of \(frame.members) members, \(iterations) runs:")
print(
    "  rank members        median \(format(frame.rankMicros.percentile(0.5))) us   p99 \(format(frame.rankMicros.percentile(0.99))) us"
)
print(
    "  build frame         median \(format(frame.renderMicros.percentile(0.5))) us   p99 \(format(frame.renderMicros.percentile(0.99))) us"
)
print(
    "  diff vs last frame  median \(format(frame.diffMicros.percentile(0.5))) us   p99 \(format(frame.diffMicros.percentile(0.99))) us"
)
print("  runs to write for an unchanged frame: \(frame.unchangedRuns)")

let executable = URL(
    fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0])
let binary = executable.deletingLastPathComponent().appendingPathComponent("screenmates").path
for demo in [false, true] {
    let result = try DashboardBenchmark.run(binary: binary, idleSeconds: idleSeconds, demo: demo)
    print("")
    print(
        demo
            ? "Dashboard with the demo monitor at --speed 60, 120x40 pseudo-terminal:"
            : "Dashboard, idle, 120x40 pseudo-terminal:")
    print("  launch to first full frame: \(format(result.firstFrameMillis)) ms (\(result.firstFrameBytes) bytes)")
    if let unchanged = result.unchangedRedrawBytes {
        print("  bytes written for an unchanged frame (after `r`): \(unchanged)")
    }
    let percent = result.idleCPUSeconds / result.idleSeconds * 100
    print(
        "  CPU over \(format(result.idleSeconds, 0)) s: \(format(result.idleCPUSeconds, 3)) s (\(format(percent, 3)) %)"
    )
    print("  bytes written over \(format(result.idleSeconds, 0)) s: \(result.idleBytes)")
    print("  resident memory: \(format(Double(result.residentKiB) / 1024)) MiB")
    print("  exit status after SIGTERM: \(result.exitStatus)")
}
