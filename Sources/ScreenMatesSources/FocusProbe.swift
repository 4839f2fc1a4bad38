import Foundation
import ScreenMatesMonitor

/// A source that looks at the machine when asked — which application has the focus, how long
/// since the user's last input — for `SampledTimeline` to turn into active time.
///
/// `sample(wallClock:)` is called about once a second from one task; it must be cheap (no tool
/// spawned on every call where the machine offers a cheaper way). `wallClock` is the instant to
/// measure idle time against (input times come from the real clock of the machine), injected so
/// tests can drive a probe against a real peer without waiting.
public protocol FocusProbe {
    /// The source's name in block ids (`terminal`, `x11`).
    var sourceName: String { get }
    /// What it follows now, in words (`tmux's active pane`), for the line the monitor says once.
    var following: String { get }
    mutating func sample(wallClock: Date) throws(FocusProbeError) -> FocusSample
}

/// Why a probe cannot look: said once by the monitor, which keeps trying.
public struct FocusProbeError: Error, Hashable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
