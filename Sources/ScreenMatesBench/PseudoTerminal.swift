import Foundation
import Glibc

/// Runs a program on a pseudo-terminal of a given size and records every byte it writes to
/// the terminal, with when it was written: what a real terminal emulator would receive.
///
/// The one child the benchmark starts with `posix_spawn` rather than swift-subprocess: the
/// program must have the terminal as its controlling terminal, as in a terminal emulator (so the
/// terminal's signals and job control reach it). That takes a new session whose leader opens
/// the terminal itself, after `setsid` (`POSIX_SPAWN_SETSID`, then the open in the file
/// actions). swift-subprocess on Linux can start a new session but only hands the child
/// descriptors opened beforehand, and has no hook to run in the child before `exec`, so its
/// child would get no controlling terminal.
final class PseudoTerminal {
    let master: Int32
    let pid: pid_t
    private(set) var output: [(at: ContinuousClock.Instant, bytes: [UInt8])] = []
    let started = ContinuousClock.now

    init(program: String, arguments: [String], environment: [String: String], rows: UInt16, columns: UInt16) throws {
        // grantpt/unlockpt/ptsname are hidden from Swift's Glibc module; their Linux ioctls are not.
        let unlockRequest: UInt = 0x4004_5431  // TIOCSPTLCK
        let numberRequest: UInt = 0x8004_5430  // TIOCGPTN
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, unlockRequest, &unlock) == 0, ioctl(master, numberRequest, &number) == 0 else {
            throw POSIXError(.ENOTTY)
        }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        let setSession: Int32 = 0x80  // POSIX_SPAWN_SETSID, also hidden
        posix_spawnattr_setflags(&attributes, Int16(setSession | POSIX_SPAWN_SETSIGMASK))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, program, &actions, &attributes, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        pid = child
    }

    /// Reads what the program writes for `seconds`, or until `stop` says enough.
    func read(for seconds: Double, until stop: ((String) -> Bool)? = nil) {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let millis = Int32(
                max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, millis) > 0 else { continue }
            let count = Glibc.read(master, &buffer, buffer.count)
            if count <= 0 { return }
            output.append((ContinuousClock.now, Array(buffer[0..<count])))
            if let stop, stop(plainText) { return }
        }
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    var text: String { String(decoding: output.flatMap(\.bytes), as: UTF8.self) }

    /// The output with escape sequences removed, roughly as a person would read it.
    var plainText: String {
        var result = ""
        var escape = false
        var sequence = ""
        for scalar in text.unicodeScalars {
            if escape {
                sequence.unicodeScalars.append(scalar)
                // CSI sequences end with a letter; two-byte ones (ESC ( B, ESC =) after one more.
                let done =
                    sequence.hasPrefix("[")
                    ? (sequence.count > 1 && scalar.properties.isAlphabetic)
                    : sequence.count >= (sequence.hasPrefix("(") ? 2 : 1)
                if done {
                    escape = false
                    sequence = ""
                }
            } else if scalar == "\u{1B}" {
                escape = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
    var byteCount: Int { output.reduce(0) { $0 + $1.bytes.count } }

    /// Bytes written after `instant`.
    func bytes(after instant: ContinuousClock.Instant) -> Int {
        output.filter { $0.at > instant }.reduce(0) { $0 + $1.bytes.count }
    }

    /// CPU time the program has used, in seconds: the sum over all its threads of the time on
    /// a CPU from /proc/PID/task/TID/schedstat (nanoseconds). A thread that has ended since an
    /// earlier reading keeps the time last read for it, so the sum never goes down.
    var cpuSeconds: Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let text = readWhole("/proc/\(pid)/task/\(task)/schedstat") ?? ""
            if let nanoseconds = Double(text.split(separator: " ").first ?? "") {
                threadCPU[task] = max(threadCPU[task] ?? 0, nanoseconds / 1e9)
            }
        }
        return threadCPU.values.reduce(0, +)
    }
    private var threadCPU: [String: Double] = [:]

    /// Resident memory in KiB, from /proc/PID/status.
    var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    func terminate() -> Int32 {
        kill(pid, SIGTERM)
        read(for: 1)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
