import Foundation
import ScreenMatesMonitor

/// A source that looks at the machine when asked — which application has the focus, how long
/// since the user's last input — for `SampledTimeline` to turn into active time.
///
/// `sample(wallClock:)` is called about once a second from one task; it must be cheap (no tool
/// spawned on every call where the machine offers a cheaper way, no wait on a quiet peer). It is
/// `async` for the probes that now and then run a program (tmux) and await its end.
/// `wallClock` is the instant to measure idle time against (input times come from the real
/// clock of the machine), injected so tests can drive a probe against a real peer without
/// waiting.
public protocol FocusProbe {
    /// The source's name in block ids (`terminal`, `x11`, `sway`, `hyprland`). It may change
    /// while a probe runs (`auto` choosing again): the blocks of each name are counted apart.
    var sourceName: String { get }
    /// What it follows now, in words (`tmux's active pane`), for the line the monitor says once.
    var following: String { get }
    mutating func sample(wallClock: Date) async throws(FocusProbeError) -> FocusSample
    /// What the probe has to say once since it was last asked (`auto` chose again, and why).
    mutating func takeNotices() -> [String]
    /// Does `act` to the window the last sample found focused, as the desktop offers it (the
    /// window manager's iconify, sway's scratchpad, a polite close request: never a process
    /// killed). False where this source cannot (the terminal, a GNOME Shell extension older than
    /// acting): the caller says so, in `whyWindowStays`'s words.
    mutating func act(_ act: WindowAct) async throws(FocusProbeError) -> Bool
    /// Why `act` answered false, for the notice.
    var whyWindowStays: String { get }
}

/// What a challenge may have done to a window that came to the front while its rule forbids it.
public enum WindowAct: String, Hashable, Sendable {
    /// Out of sight, still running.
    case minimize
    /// The application asked to close the window, as its close button would.
    case close
}

extension FocusProbe {
    public mutating func takeNotices() -> [String] { [] }
    public mutating func act(_ act: WindowAct) async throws(FocusProbeError) -> Bool { false }
    public var whyWindowStays: String {
        "This desktop (\(sourceName)) lets ScreenMates only say so: the window stays."
    }
}

/// Why a probe cannot look: said once by the monitor, which keeps trying — unless the source
/// itself ended (`sourceEnded`: the X server or the compositor went away), which no retry of
/// this probe can mend: the monitor then chooses again (`auto`) or stops.
public struct FocusProbeError: Error, Hashable, Sendable {
    public var message: String
    public var sourceEnded: Bool
    public init(_ message: String, sourceEnded: Bool = false) {
        self.message = message
        self.sourceEnded = sourceEnded
    }
}
