import Foundation
import Glibc

/// The socket of the user's tmux server, found as tmux finds it (`-S`, `-L`, `$TMUX`,
/// `$TMUX_TMPDIR`), and watched with one `stat`: tmux sets the socket's execute bits while a
/// client is attached and clears them when the last one leaves, and the socket comes and goes
/// with its server — each a change of the stamp, and a reason to ask tmux again.
struct TmuxSocket {
    let path: String

    /// What a `stat` of the socket shows; `nil` when there is none (no server).
    struct Stamp: Equatable {
        var inode: UInt
        var mode: UInt32
        var changed: Int
        var changedNanoseconds: Int
    }

    init(server: [String], environment: [String: String], uid: uid_t = getuid()) {
        var label = "default"
        var explicitPath: String?
        var index = server.startIndex
        while index < server.endIndex {
            if server[index] == "-S", index + 1 < server.endIndex { explicitPath = server[index + 1] }
            if server[index] == "-L", index + 1 < server.endIndex { label = server[index + 1] }
            index += 1
        }
        if let explicitPath {
            path = explicitPath
        } else if !server.contains("-L"), let tmux = environment["TMUX"], let first = tmux.split(separator: ",").first,
            !tmux.hasPrefix(",")
        {
            path = String(first)
        } else {
            let directory = environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            path = "\(directory)/tmux-\(uid)/\(label)"
        }
    }

    func stamp() -> Stamp? {
        var info = Glibc.stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(
            inode: UInt(info.st_ino), mode: UInt32(info.st_mode), changed: info.st_ctim.tv_sec,
            changedNanoseconds: info.st_ctim.tv_nsec)
    }
}
