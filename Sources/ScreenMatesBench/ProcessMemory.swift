import Foundation
import Glibc

/// What a running process holds in memory, read from `/proc/PID/status` and `/proc/PID/smaps`:
/// resident pages in all, those that are anonymous (heap, stacks, written copies of data) and
/// those that are pages of files (the program, its libraries), and per mapping.
///
/// Resident pages of a file are shared with every other process that maps the same file, but
/// each process counts them in its own `VmRSS`: a fair comparison reads both numbers.
struct ProcessMemory {
    var residentKiB: Int
    var anonymousKiB: Int
    var fileKiB: Int
    /// Resident and anonymous KiB by mapping (a file's path, `[heap]`, `[stack]`, `[anon]`),
    /// largest first.
    var mappings: [(name: String, residentKiB: Int, anonymousKiB: Int)]

    init?(pid: pid_t) {
        guard let status = readWhole("/proc/\(pid)/status") else { return nil }
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        residentKiB = field("VmRSS")
        anonymousKiB = field("RssAnon")
        fileKiB = field("RssFile")
        mappings = Self.mappings(pid: pid)
    }

    /// Sums `/proc/PID/smaps` by the name of each mapping.
    private static func mappings(pid: pid_t) -> [(name: String, residentKiB: Int, anonymousKiB: Int)] {
        guard let smaps = readWhole("/proc/\(pid)/smaps") else { return [] }
        var resident: [String: Int] = [:]
        var anonymous: [String: Int] = [:]
        var name = "[anon]"
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), first.first?.isHexDigit == true, fields.count >= 5 {
                // A mapping's header: address range, permissions, offset, device, inode, [path].
                name = fields.count > 5 ? fields[5...].joined(separator: " ") : "[anon]"
            } else if first == "Rss:", fields.count > 1 {
                resident[name, default: 0] += Int(fields[1]) ?? 0
            } else if first == "Anonymous:", fields.count > 1 {
                anonymous[name, default: 0] += Int(fields[1]) ?? 0
            }
        }
        return resident.filter { $0.value > 0 }.map { ($0.key, $0.value, anonymous[$0.key] ?? 0) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    }

    /// The files the process has mapped (resident or not) that belong to a Swift toolchain —
    /// its runtime, Foundation and Dispatch libraries: none for a self-contained binary.
    static func toolchainLibraries(pid: pid_t) -> [String] {
        let maps = readWhole("/proc/\(pid)/maps") ?? ""
        let paths = maps.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 5 ? fields[5...].joined(separator: " ") : nil
        }
        return Set(paths).filter { path in
            let file = (path as NSString).lastPathComponent
            return file.hasPrefix("libswift") || file.hasPrefix("libFoundation") || file.hasPrefix("lib_Foundation")
                || file.hasPrefix("libdispatch") || file.hasPrefix("libBlocksRuntime")
        }.sorted()
    }
}

/// A file read to its end with plain `read` calls: Foundation's readers stop early on files of
/// `/proc`, which report a size of 0.
func readWhole(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// KiB as MiB with one decimal, as the Performance article quotes them.
func mebibytes(_ kibibytes: Int) -> String { format(Double(kibibytes) / 1024) + " MiB" }
