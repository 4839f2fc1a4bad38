import Foundation
import Subprocess
import SystemPackage

/// How desktop notices reach the desktop through the terminal the dashboard runs in: which
/// escape sequence the terminal turns into a desktop notification, and whether tmux stands in
/// between and must be asked to pass it on.
///
/// Only terminals known to understand a sequence get it: a terminal that does not would show
/// it as garbage (the Linux console prints an unknown OSC's text). Inside tmux the terminal is
/// the one tmux's client runs in, named by tmux itself (`client_termname`), and the sequence
/// goes in tmux's passthrough (`ESC P tmux; … ESC \`), which tmux forwards only with
/// `allow-passthrough on` (and otherwise drops, showing nothing).
package struct DesktopNoticeCarrier: Hashable, Sendable {
    /// The desktop-notification sequence a terminal understands.
    package enum Kind: String, Hashable, Sendable {
        /// OSC 777 (`notify;title;body`: VTE, foot, urxvt, WezTerm, Ghostty) and OSC 9 (one
        /// text: iTerm2, Windows Terminal, ConEmu, WezTerm, Ghostty); each ignores the other.
        case osc777AndOsc9
        /// kitty's own OSC 99, title and body in two parts.
        case kitty
        /// None known: send no sequence (notify-send may still reach the desktop).
        case none
    }

    package var kind: Kind
    /// tmux runs between the dashboard and the terminal.
    package var throughTmux: Bool
    /// Inside tmux: whether it passes sequences on (`allow-passthrough`, which tmux 3.3 shows as
    /// 1 or 0 and 3.4 as on, off or all); nil when unknown.
    var tmuxPassesThrough: Bool?

    package init(kind: Kind, throughTmux: Bool, tmuxPassesThrough: Bool? = nil) {
        self.kind = kind
        self.throughTmux = throughTmux
        self.tmuxPassesThrough = tmuxPassesThrough
    }

    /// The terminal from the environment; inside tmux, tmux is asked (`askTmux`, within its time
    /// limit). Outside tmux nothing is run.
    package static func detect(environment: [String: String]) async -> DesktopNoticeCarrier {
        guard inTmux(environment) else { return detect(environment: environment, tmuxClient: { nil }) }
        let client = await askTmux()
        return detect(environment: environment, tmuxClient: { client })
    }

    /// The terminal from the environment; inside tmux (`TMUX` set), `tmuxClient` answers what
    /// tmux knows: the client's terminal name and the `allow-passthrough` option.
    package static func detect(
        environment: [String: String], tmuxClient: () -> (termName: String, allowPassthrough: String)?
    ) -> DesktopNoticeCarrier {
        guard inTmux(environment) else {
            return DesktopNoticeCarrier(
                kind: kind(term: environment["TERM"], environment: environment), throughTmux: false)
        }
        // tmux sets TERM and TERM_PROGRAM for its panes; the outer terminal's name comes from
        // tmux, and the variables it sets for its own windows (inherited by a tmux server
        // started there) still say which terminal it is.
        var outer = environment
        outer["TERM_PROGRAM"] = nil
        let client = tmuxClient()
        let passes = client.map { client in
            ["1", "on", "all"].contains(client.allowPassthrough.trimmingCharacters(in: .whitespaces))
        }
        return DesktopNoticeCarrier(
            kind: kind(term: client?.termName, environment: outer), throughTmux: true, tmuxPassesThrough: passes)
    }

    /// Whether tmux runs between the program and the terminal (it must then be asked which).
    package static func inTmux(_ environment: [String: String]) -> Bool { !(environment["TMUX"] ?? "").isEmpty }

    private static func kind(term: String?, environment: [String: String]) -> Kind {
        let term = term ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil { return .kitty }
        let osc777Terms = ["foot", "foot-extra", "xterm-ghostty", "wezterm"]
        if osc777Terms.contains(term) || term.hasPrefix("rxvt-unicode") { return .osc777AndOsc9 }
        if ["iTerm.app", "WezTerm", "ghostty"].contains(program) { return .osc777AndOsc9 }
        let markers = ["VTE_VERSION", "WT_SESSION", "ConEmuPID", "WEZTERM_PANE", "GHOSTTY_RESOURCES_DIR"]
        if markers.contains(where: { environment[$0] != nil }) || environment["LC_TERMINAL"] == "iTerm2" {
            return .osc777AndOsc9
        }
        return .none
    }

    /// How long tmux is given to answer: it answers in a few milliseconds; one that does not
    /// (a server stopped, a socket nobody serves) is taken for one that cannot be asked.
    static let tmuxTimeLimit: Duration = .seconds(1)

    /// What the tmux server says of the client this pane is shown on: runs `tmux` (a name found
    /// on `PATH`, or a path) once; nil when it cannot be asked or does not answer within
    /// `timeLimit` (it is then stopped).
    static func askTmux(_ tmux: String = "tmux", timeLimit: Duration = tmuxTimeLimit) async -> (
        termName: String, allowPassthrough: String
    )? {
        await withTaskGroup(of: (termName: String, allowPassthrough: String)?.self) { race in
            race.addTask { await ask(tmux) }
            race.addTask {
                try? await Task.sleep(for: timeLimit)
                return nil
            }
            // The first to end: tmux's answer, or the time limit (the other is cancelled, which
            // stops a tmux still running).
            let first = await race.next() ?? nil
            race.cancelAll()
            return first
        }
    }

    private static func ask(_ tmux: String) async -> (termName: String, allowPassthrough: String)? {
        guard
            let result = try? await Subprocess.run(
                tmux.contains("/") ? .path(FilePath(tmux)) : .name(tmux),
                arguments: ["display-message", "-p", "#{client_termname}\t#{allow-passthrough}"],
                input: .none, output: .string(limit: 1 << 16), error: .discarded),
            result.terminationStatus.isSuccess
        else { return nil }
        let fields = result.standardOutput.trimmingCharacters(in: .newlines)
            .split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 2 else { return nil }
        return (fields[0], fields[1])
    }

    /// One line for the debug panel: how notices go out, and what stops them.
    package var summary: String {
        let how: String
        switch kind {
        case .osc777AndOsc9: how = "OSC 777 and OSC 9"
        case .kitty: how = "kitty's OSC 99"
        case .none: how = "no escape sequence (terminal not known to show them); notify-send"
        }
        let via = throughTmux ? " through tmux" : ""
        return how + via + (advice.map { " - " + $0 } ?? "")
    }

    /// What to say once, when notices are to reach the desktop but this terminal cannot carry
    /// them; nil when it can.
    package var advice: String? {
        if throughTmux && tmuxPassesThrough == false && kind != .none {
            return "tmux passes desktop notices on only with `set -g allow-passthrough on` in ~/.tmux.conf."
        }
        return nil
    }

    /// The escape sequences for one notice (`title` and `body` already plain text without
    /// control characters or ";"; `id` one of the characters kitty allows), wrapped for tmux when
    /// it stands in between.
    func sequences(title: String, body: String, id: String) -> String {
        let raw: [String]
        switch kind {
        case .none:
            return ""
        case .osc777AndOsc9:
            raw = ["\u{1B}]777;notify;\(title);\(body)\u{1B}\\", "\u{1B}]9;\(title): \(body)\u{1B}\\"]
        case .kitty:
            // Title first (d=0: more to come), then the body, which shows it.
            raw = ["\u{1B}]99;i=sm\(id):d=0;\(title)\u{1B}\\", "\u{1B}]99;i=sm\(id):d=1:p=body;\(body)\u{1B}\\"]
        }
        guard throughTmux else { return raw.joined() }
        // tmux's passthrough: the sequence inside a DCS, each ESC doubled.
        return raw.map { "\u{1B}Ptmux;" + $0.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\" }
            .joined()
    }
}
