import Foundation
import Subprocess
import SystemPackage

/// The clients attached to the user's tmux server, as `tmux list-clients` reports them (the
/// server of `$TMUX`, else the default socket under `$TMUX_TMPDIR`, as tmux itself finds it).
public struct TmuxClient: Hashable, Sendable {
    /// When the client last had input (tmux's `client_activity`, whole seconds).
    public var activity: Date
    /// The client's process: gone once the client detached.
    public var pid: Int32
    /// The client's own terminal (`/dev/pts/3`).
    public var terminal: String
    /// The process of the active pane of the client's current window.
    public var panePID: Int32
    /// What tmux names the pane's foreground program (`nvim`).
    public var command: String

    /// The format `list-clients -F` is given: control-mode clients (scripts, this probe's
    /// kind) are no person at a terminal and are left out.
    static let format =
        "#{client_control_mode} #{client_activity} #{client_pid} #{client_tty} #{pane_pid} #{pane_current_command}"

    /// Parses one line of the reply; `nil` for a control-mode client or a line it cannot read.
    static func parse(_ line: Substring) -> TmuxClient? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] != "1", let activity = Int64(fields[1]), let pid = Int32(fields[2]),
            let pane = Int32(fields[4])
        else { return nil }
        return TmuxClient(
            activity: Date(timeIntervalSince1970: Double(activity)), pid: pid, terminal: String(fields[3]),
            panePID: pane, command: String(fields[5]))
    }

    /// Runs `tmux list-clients`; `nil` when no tmux server runs (or tmux is not installed).
    /// `server` selects another server than tmux would (`-L NAME`, `-S PATH`).
    public static func list(tmux: String, server: [String] = []) async -> [TmuxClient]? {
        guard
            let result = try? await Subprocess.run(
                .path(FilePath(tmux)), arguments: Arguments(server + ["list-clients", "-F", format]),
                output: .bytes(limit: 1 << 20)),
            result.terminationStatus.isSuccess
        else { return nil }
        return String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").compactMap(parse)
    }

    /// The tmux executable on `PATH`.
    public static func executable(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
