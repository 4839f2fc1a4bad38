import Foundation
import Glibc
import ScreenMatesMonitor

/// `--source terminal`: the program in the foreground of the terminal the user types in.
///
/// With tmux: the active pane of the attached client that had input last; a server with no
/// client attached (a detached session) shows nothing. Without: the foreground process group
/// of the user's own terminals (from `/proc`), the one typed in last; tmux's panes are left to
/// tmux. Idle is the time since that terminal's last input (tmux's `client_activity`, or the
/// access time the kernel stamps on a terminal when its input is read, in 8-second steps).
///
/// It asks tmux (a `tmux list-clients` run) only when something may have changed that `/proc`
/// cannot show: the server's socket changed (a server started or ended, the first client
/// attached or the last one left: `TmuxSocket`), a client's process is gone (it detached), a
/// client's terminal had input that the active pane's terminal did not read in the same
/// 8-second step (a key tmux kept for itself: a pane or window switch, a mouse click), or
/// `refreshInterval` passed (another client attaching beside one, a script switching panes).
/// Typing into the pane followed asks nothing. The user's other terminals are looked for again
/// when `/dev/pts` holds other entries, or every `refreshInterval`. In between, each sample is
/// a few reads of `/proc`: the pane's foreground group, and the program's name only when that
/// group changes.
public struct TerminalProbe: FocusProbe {
    public let sourceName = "terminal"
    public var refreshInterval: TimeInterval = 300
    private let tmux: String?
    private let server: [String]
    private let socket: TmuxSocket
    private let followsTerminals: Bool
    private let uid = getuid()
    private var clients: [Client] = []
    private var askedAt: Date?
    private var socketStamp: TmuxSocket.Stamp?
    private var terminals: [String: Int32] = [:]
    private var scannedAt: Date?
    private var ptys: Set<String> = []
    private var names = ForegroundNames()
    public private(set) var following = "the terminal"
    /// How many times tmux was asked (a `tmux list-clients` run).
    public private(set) var tmuxAsked = 0

    /// A client as last asked, with what the probe has seen of its input since.
    private struct Client {
        var client: TmuxClient
        /// The client's terminal's last input, as last seen.
        var input: Date
        /// The active pane's own terminal (`/dev/pts/5`), whose reads explain the client's input.
        var paneTerminal: String?
    }

    /// - Parameters:
    ///   - server: tmux's options choosing another server (`-L NAME`, `-S PATH`); tmux's own
    ///     default otherwise (`$TMUX`, `$TMUX_TMPDIR`).
    ///   - followsTerminals: whether, with no tmux client attached, the user's other terminals
    ///     are followed.
    public init(
        tmux: String? = TmuxClient.executable(), server: [String] = [], followsTerminals: Bool = true,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.tmux = tmux
        self.server = server
        self.followsTerminals = followsTerminals
        socket = TmuxSocket(server: server, environment: environment)
    }

    public mutating func sample(wallClock: Date) async throws(FocusProbeError) -> FocusSample {
        if let tmux {
            if mustAskTmux(wallClock) {
                socketStamp = socket.stamp()
                clients = (await TmuxClient.list(tmux: tmux, server: server) ?? []).map { client in
                    Client(
                        client: client, input: ProcessTable.lastInput(client.terminal) ?? .distantPast,
                        paneTerminal: ProcessTable.processStat(client.panePID).flatMap {
                            ProcessTable.terminalPath($0.terminal)
                        })
                }
                askedAt = wallClock
                tmuxAsked += 1
            }
            if let latest = clients.max(by: { lastInput(of: $0) < lastInput(of: $1) }) {
                following = "tmux's active pane"
                let program = names.program(onTerminalOf: latest.client.panePID) ?? latest.client.command
                return FocusSample(
                    app: program, idleSeconds: max(0, wallClock.timeIntervalSince(lastInput(of: latest))))
            }
        }
        guard followsTerminals else {
            following = "tmux's active pane (no client attached)"
            return FocusSample(app: nil, idleSeconds: nil)
        }
        return terminalSample(wallClock)
    }

    private func lastInput(of client: Client) -> Date {
        max(client.client.activity, client.input)
    }

    /// Whether tmux must be asked again (see the type's note).
    private mutating func mustAskTmux(_ now: Date) -> Bool {
        guard let askedAt, now >= askedAt, now.timeIntervalSince(askedAt) < refreshInterval,
            socket.stamp() == socketStamp
        else { return true }
        var ask = false
        for index in clients.indices {
            if kill(clients[index].client.pid, 0) != 0, errno == ESRCH { ask = true }
            let input = ProcessTable.lastInput(clients[index].client.terminal) ?? .distantPast
            guard input != clients[index].input else { continue }
            clients[index].input = input
            let pane = clients[index].paneTerminal.flatMap(ProcessTable.lastInput)
            if pane.map({ Self.step($0) != Self.step(input) }) ?? true { ask = true }
        }
        return ask
    }

    /// The kernel's 8-second step a terminal's access time falls in.
    private static func step(_ instant: Date) -> Int64 {
        Int64(instant.timeIntervalSince1970.rounded(.down)) & ~7
    }

    /// No tmux client: the user's own terminals, the one typed in last.
    private mutating func terminalSample(_ now: Date) -> FocusSample {
        let entries = ProcessTable.entries(of: "/dev/pts")
        if entries != ptys || scannedAt.map({ now < $0 || now.timeIntervalSince($0) >= refreshInterval }) ?? true {
            terminals = Self.userTerminals(uid: uid)
            scannedAt = now
            ptys = entries
        }
        let latest = terminals.compactMap { path, leader in ProcessTable.lastInput(path).map { ($0, leader) } }
            .max { $0.0 < $1.0 }
        guard let (input, leader) = latest, let program = names.program(onTerminalOf: leader) else {
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
    public static func inUse(tmux: String? = TmuxClient.executable()) async -> Bool {
        if let tmux, !(await TmuxClient.list(tmux: tmux) ?? []).isEmpty { return true }
        return !userTerminals(uid: getuid()).isEmpty
    }
}

extension TerminalProbe {
    /// The user's terminals the probe would follow without tmux (tmux's panes left out).
    public static func userTerminalPaths() -> Set<String> {
        Set(userTerminals(uid: getuid()).keys)
    }
}
