import Foundation
import ScreenMatesCore

/// Where a monitor's events come from: the simulated day, a scripted day, or a stream at a
/// fixed rate. A real usage source would be one more of these.
public protocol UsageSource: Sendable {
    /// The next event; `now` is the app clock's time, for sources that stamp events as they
    /// are made. `nil` when the source has nothing more to give.
    mutating func next(now: Date) -> UsageEvent?
}

extension UsageSimulator: UsageSource {
    public mutating func next(now: Date) -> UsageEvent? { next() }
}
