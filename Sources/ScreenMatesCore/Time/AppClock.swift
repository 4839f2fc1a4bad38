import Foundation
import Synchronization

/// The app's notion of "now". Every rule takes its time from an injected clock, so tests pin
/// it and `--speed` / `--start-at` make a whole day pass in a minute.
public protocol AppClock: Sendable {
    func now() -> Date
    /// How many app-clock seconds pass per real second (1 for the system clock).
    var speed: Double { get }
}

extension AppClock {
    /// Real seconds until the app clock reaches `instant` (zero if it already has).
    public func realSeconds(until instant: Date) -> Double {
        max(0, instant.timeIntervalSince(now()) / speed)
    }
}

/// The machine's wall clock.
public struct SystemClock: AppClock {
    public init() {}
    public func now() -> Date { Date() }
    public var speed: Double { 1 }
}

/// A clock that starts at a chosen instant and runs `speed` times faster than real time.
///
/// Real elapsed time comes from a monotonic source, so the app clock never jumps when the
/// machine's wall clock is adjusted.
public struct SimulatedClock: AppClock {
    public let origin: Date
    public let speed: Double
    private let realStart: ContinuousClock.Instant

    public init(startingAt origin: Date, speed: Double) {
        precondition(speed > 0, "speed must be positive")
        self.origin = origin
        self.speed = speed
        self.realStart = ContinuousClock.now
    }

    public func now() -> Date {
        let elapsed = ContinuousClock.now - realStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return origin.addingTimeInterval(seconds * speed)
    }
}

/// A clock that only moves when told to; for tests.
public final class ManualClock: AppClock {
    private let current: Mutex<Date>

    public init(_ start: Date) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }
    public var speed: Double { 1 }

    public func set(_ instant: Date) { current.withLock { $0 = instant } }
    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A simulated clock that can be moved forward while it runs — the debug panel's "end of the
/// day" — keeping its speed. It never moves back, so events stay in the order they happened.
public final class AdjustableClock: AppClock {
    private let current: Mutex<SimulatedClock>

    public init(_ clock: SimulatedClock) { current = Mutex(clock) }

    public func now() -> Date { current.withLock { $0.now() } }
    public var speed: Double { current.withLock { $0.speed } }

    /// Moves the clock to `instant` if that is ahead of it; returns the clock's time after.
    @discardableResult
    public func jump(to instant: Date) -> Date {
        current.withLock { clock in
            if instant > clock.now() { clock = SimulatedClock(startingAt: instant, speed: clock.speed) }
            return clock.now()
        }
    }
}
