import Foundation
import ScreenMatesMonitor

/// `--source auto` once ActivityWatch does not answer: the first desktop of the session that
/// answers (`SessionSources`), else the terminal — and chosen again while it runs.
///
/// When the desktop followed ends (the X server stops, the compositor exits) it chooses again
/// at once, falling back to the terminal; while it follows anything but the first desktop it
/// looks once a minute whether one before it answers again. Each choice is said once
/// (`takeNotices`). The source's name changes with the choice, and the monitor counts the
/// blocks of each name apart, so switching never counts a minute twice.
public struct AutoProbe: FocusProbe {
    private let session: SessionSources
    private let makeTerminal: @Sendable () -> any FocusProbe
    private var current: any FocusProbe
    /// The desktop followed (its index in `session.desktops`), or `nil` for the terminal.
    private var desktop: Int?
    private var lookedAt: Date?
    private var notices: [String] = []
    /// How often a better desktop is looked for.
    public var lookInterval: TimeInterval = 60

    public var sourceName: String { current.sourceName }
    public var following: String { current.following }

    public init(session: SessionSources, terminal: @escaping @Sendable () -> any FocusProbe) {
        self.session = session
        makeTerminal = terminal
        (current, desktop) = Self.choose(session, terminal)
    }

    public mutating func sample(wallClock: Date) async throws(FocusProbeError) -> FocusSample {
        lookForABetterDesktop(wallClock)
        do {
            return try await current.sample(wallClock: wallClock)
        } catch  where error.sourceEnded {
            let ended = error.message
            (current, desktop) = Self.choose(session, makeTerminal)
            notices.append("\(ended) Choosing again: following \(current.following) (--source \(current.sourceName)).")
            lookedAt = wallClock
            return try await current.sample(wallClock: wallClock)
        }
    }

    public mutating func act(_ act: WindowAct) async throws(FocusProbeError) -> Bool {
        try await current.act(act)
    }

    public var whyWindowStays: String { current.whyWindowStays }

    public mutating func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// Once a minute, while not on the first desktop: one before the current that answers now.
    private mutating func lookForABetterDesktop(_ now: Date) {
        let limit = desktop ?? session.desktops.count
        guard limit > 0 else { return }
        if let lookedAt, now >= lookedAt, now.timeIntervalSince(lookedAt) < lookInterval { return }
        lookedAt = now
        guard let (index, probe) = session.firstAnswering(before: limit) else { return }
        current = probe
        desktop = index
        notices.append(
            "\(session.desktops[index].name) answers now: following \(probe.following) (--source \(probe.sourceName)).")
    }

    private static func choose(_ session: SessionSources, _ terminal: @Sendable () -> any FocusProbe)
        -> (any FocusProbe, Int?)
    {
        if let (index, probe) = session.firstAnswering() { return (probe, index) }
        return (terminal(), nil)
    }
}
