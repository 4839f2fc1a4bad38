import Foundation
import Glibc
import ScreenMatesMonitor

/// `--source terminal`: the program in the foreground of the terminal the user types in.
///
/// With tmux: the active pane of the attached client that had input last; a server with no
/// client attached (a detached session) shows nothing. Without: the foreground process group
/// of the user's own terminals (from `/proc`), the one typed in last; tmux's panes are left to
/// tmux. Idle is the time since that terminal's last input (tmux's `client_activity`, or the
/// access time the kernel stamps on a terminal when its input is read).
///
/// It asks tmux again only when a client's terminal had input since it last asked (a pane
/// switch is input) or every `refreshInterval`; in between, each sample is a few reads of
/// `/proc`, so following costs almost nothing. The pane's foreground program is read from
/// `/proc` every time, so a program started or ended shows at once.
public struct TerminalProbe: FocusProbe {
    public let sourceName = "terminal"
    public var refreshInterval: TimeInterval = 30
    private let tmux: String?
    private let server: [String]
    private let followsTerminals: Bool
    private let uid = getuid()
    private var clients: [TmuxClient] = []
    private var clientInput: [String: Date] = [:]
    private var askedAt: Date?
    private var terminals: [String: Int32] = [:]
    private var scannedAt: Date?
    public private(set) var following = "the terminal"

    /// - Parameters:
    ///   - server: tmux's options choosing another server (`-L NAME`); tmux's own default
    ///     otherwise (`$TMUX`, `$TMUX_TMPDIR`).
    ///   - followsTerminals: whether, with no tmux client attached, the user's other terminals
    ///     are followed.
    public init(tmux: String? = TmuxClient.executable(), server: [String] = [], followsTerminals: Bool = true) {
        self.tmux = tmux
        self.server = server
        self.followsTerminals = followsTerminals
    }

    public mutating func sample(wallClock: Date) throws(FocusProbeError) -> FocusSample {
        if let tmux {
            if mustAskTmux(wallClock) {
                clients = TmuxClient.list(tmux: tmux, server: server) ?? []
                clientInput = Dictionary(
                    clients.map { ($0.terminal, ProcessTable.lastInput($0.terminal) ?? .distantPast) },
                    uniquingKeysWith: max)
                askedAt = wallClock
            }
            if let client = clients.max(by: { lastInput(of: $0) < lastInput(of: $1) }) {
                following = "tmux's active pane"
                let program = ProcessTable.foregroundProgram(onTerminalOf: client.panePID) ?? client.command
                return FocusSample(
                    app: program, idleSeconds: max(0, wallClock.timeIntervalSince(lastInput(of: client))))
            }
        }
        guard followsTerminals else {
            following = "tmux's active pane (no client attached)"
            return FocusSample(app: nil, idleSeconds: nil)
        }
        return terminalSample(wallClock)
    }

    private func lastInput(of client: TmuxClient) -> Date {
        max(client.activity, ProcessTable.lastInput(client.terminal) ?? .distantPast)
    }

    private func mustAskTmux(_ now: Date) -> Bool {
        guard let askedAt, now >= askedAt, now.timeIntervalSince(askedAt) < refreshInterval else { return true }
        return clients.contains { (ProcessTable.lastInput($0.terminal) ?? .distantPast) != clientInput[$0.terminal] }
    }

    /// No tmux client: the user's own terminals, the one typed in last.
    private mutating func terminalSample(_ now: Date) -> FocusSample {
        if scannedAt.map({ now < $0 || now.timeIntervalSince($0) >= refreshInterval }) ?? true {
            terminals = Self.userTerminals(uid: uid)
            scannedAt = now
        }
        let latest = terminals.compactMap { path, leader in ProcessTable.lastInput(path).map { ($0, leader) } }
            .max { $0.0 < $1.0 }
        guard let (input, leader) = latest, let program = ProcessTable.foregroundProgram(onTerminalOf: leader) else {
            following = "the terminal (none in use)"
            return FocusSample(app: nil, idleSeconds: nil)
        }
        following = "the foreground program of your terminals"
        return FocusSample(app: program, idleSeconds: max(0, now.timeIntervalSince(input)))
    }

    /// The user's terminals and a session leader on each, less tmux's panes (a pane counts only
    /// through an attached tmux client).
    static func userTerminals(uid: uid_t) -> [String: Int32] {
        var result: [String: Int32] = [:]
        for pid in ProcessTable.processes(ownedBy: uid) {
            guard let stat = ProcessTable.processStat(pid), stat.pid == stat.session, stat.terminal != 0,
                let path = ProcessTable.terminalPath(stat.terminal),
                !(ProcessTable.processStat(stat.parent)?.comm.hasPrefix("tmux") ?? false)
            else { continue }
            result[path] = pid
        }
        return result
    }
}

extension TerminalProbe {
    /// Whether someone uses a terminal now: a tmux client attached, or a terminal of the user's.
    public static func inUse(tmux: String? = TmuxClient.executable()) -> Bool {
        if let tmux, !(TmuxClient.list(tmux: tmux) ?? []).isEmpty { return true }
        return !userTerminals(uid: getuid()).isEmpty
    }
}

extension TerminalProbe {
    /// The user's terminals the probe would follow without tmux (tmux's panes left out).
    public static func userTerminalPaths() -> Set<String> {
        Set(userTerminals(uid: getuid()).keys)
    }
}
