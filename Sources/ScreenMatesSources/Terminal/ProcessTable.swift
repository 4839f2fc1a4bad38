import Foundation
import Glibc

/// What `/proc` tells about processes and terminals, read directly (no `ps`, no tool, and no
/// Foundation file APIs on the path a sample takes: one `open`/`read`/`close` per file).
public enum ProcessTable {
    /// The fields of `/proc/PID/stat` a terminal source needs.
    public struct Stat: Hashable, Sendable {
        public var pid: Int32
        public var comm: String
        public var parent: Int32
        public var group: Int32
        public var session: Int32
        /// The controlling terminal as the kernel numbers it (0: none).
        public var terminal: Int32
        /// The terminal's foreground process group (-1: none).
        public var foregroundGroup: Int32
    }

    public static func processStat(_ pid: Int32) -> Stat? {
        guard let bytes = read("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let open = text.firstIndex(of: "("),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let comm = String(text[text.index(after: open)..<close])
        // After ")": state ppid pgrp session tty_nr tpgid …
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 5, let parent = Int32(fields[1]), let group = Int32(fields[2]),
            let session = Int32(fields[3]), let terminal = Int32(fields[4]), let foreground = Int32(fields[5])
        else { return nil }
        return Stat(
            pid: pid, comm: comm, parent: parent, group: group, session: session, terminal: terminal,
            foregroundGroup: foreground)
    }

    /// The program's name as a person would say it: the last path component of its first
    /// argument (what tmux shows as a pane's command), without a login shell's `-`; else its
    /// kernel name.
    public static func programName(_ pid: Int32) -> String? {
        if let data = read("/proc/\(pid)/cmdline"),
            let first = data.split(separator: 0, omittingEmptySubsequences: false).first, !first.isEmpty
        {
            var name = String(decoding: first, as: UTF8.self)
            if let slash = name.lastIndex(of: "/") { name = String(name[name.index(after: slash)...]) }
            if name.hasPrefix("-") { name.removeFirst() }
            if !name.isEmpty, !name.contains(" ") { return name }
        }
        return processStat(pid)?.comm
    }

    /// The program in the foreground of the terminal `pid` runs on (its foreground process
    /// group's leader), or `nil`.
    public static func foregroundProgram(onTerminalOf pid: Int32) -> String? {
        guard let stat = processStat(pid), stat.terminal != 0, stat.foregroundGroup > 0 else { return nil }
        return programName(stat.foregroundGroup) ?? programName(pid)
    }

    /// The device path of a kernel terminal number: `/dev/pts/N` or `/dev/ttyN`.
    public static func terminalPath(_ number: Int32) -> String? {
        let major = (Int(number) >> 8) & 0xFFF
        let minor = (Int(number) & 0xFF) | ((Int(number) >> 12) & 0xFFF00)
        switch major {
        case 136...143: return "/dev/pts/\(minor + (major - 136) * 256)"
        case 4 where minor < 64: return "/dev/tty\(minor)"
        default: return nil
        }
    }

    /// When someone last typed on the terminal at `path`: the kernel stamps a terminal's access
    /// time when its input is read (to 8 seconds), as `w` shows.
    public static func lastInput(_ path: String) -> Date? {
        var info = Glibc.stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(
            timeIntervalSince1970: Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1_000_000_000)
    }

    /// The numeric entries of `/proc` owned by `uid`.
    public static func processes(ownedBy uid: uid_t) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry) else { return nil }
            var info = Glibc.stat()
            guard stat("/proc/\(entry)", &info) == 0, info.st_uid == uid else { return nil }
            return pid
        }
    }

    /// The names in a directory (`/dev/pts`: one per terminal open), read with `readdir`.
    static func entries(of directory: String) -> Set<String> {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: Set<String> = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.insert(name) }
        }
        return names
    }

    /// A small file's bytes (what `/proc` files hold: up to 4 KiB is read).
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < buffer.count {
            let read = buffer[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        return Array(buffer[0..<count])
    }
}

/// The foreground program of terminals, named once per process group: each sample reads the
/// group from `/proc` (and its leader's kernel name, which `exec` changes), and reads the
/// leader's command line only when either changed.
struct ForegroundNames {
    private var known: [Int32: (comm: String, name: String)] = [:]

    /// The program in the foreground of the terminal `pid` runs on, or `nil`.
    mutating func program(onTerminalOf pid: Int32) -> String? {
        guard let stat = ProcessTable.processStat(pid), stat.terminal != 0, stat.foregroundGroup > 0 else {
            return nil
        }
        let leader = stat.foregroundGroup
        guard let leaderStat = ProcessTable.processStat(leader) else { return ProcessTable.programName(pid) }
        if let cached = known[leader], cached.comm == leaderStat.comm { return cached.name }
        let name = ProcessTable.programName(leader) ?? leaderStat.comm
        if known.count >= 32 { known = [:] }
        known[leader] = (leaderStat.comm, name)
        return name
    }
}
