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
/// day" — keeping its speed, and held still while the first-run screens wait for typing, so a
/// demo's day begins when the dashboard is first shown. It never moves back, so events stay in
/// the order they happened.
public final class AdjustableClock: AppClock {
    private enum State {
        case running(SimulatedClock)
        case paused(at: Date, speed: Double)
    }

    private let current: Mutex<State>

    public init(_ clock: SimulatedClock) { current = Mutex(.running(clock)) }

    public func now() -> Date {
        current.withLock { state in
            switch state {
            case .running(let clock): clock.now()
            case .paused(let instant, _): instant
            }
        }
    }

    public var speed: Double {
        current.withLock { state in
            switch state {
            case .running(let clock): clock.speed
            case .paused(_, let speed): speed
            }
        }
    }

    /// Whether the clock is held still.
    public var isPaused: Bool {
        current.withLock { state in
            if case .paused = state { return true }
            return false
        }
    }

    /// Holds the clock where it is until `resume()`.
    public func pause() {
        current.withLock { state in
            if case .running(let clock) = state { state = .paused(at: clock.now(), speed: clock.speed) }
        }
    }

    /// Lets a held clock run on from where it was held; returns the clock's time.
    @discardableResult
    public func resume() -> Date {
        current.withLock { state in
            switch state {
            case .running(let clock):
                return clock.now()
            case .paused(let instant, let speed):
                state = .running(SimulatedClock(startingAt: instant, speed: speed))
                return instant
            }
        }
    }

    /// Moves the clock to `instant` if that is ahead of it; returns the clock's time after. A
    /// held clock stays held, at the new instant.
    @discardableResult
    public func jump(to instant: Date) -> Date {
        current.withLock { state in
            switch state {
            case .running(let clock):
                if instant > clock.now() {
                    state = .running(SimulatedClock(startingAt: instant, speed: clock.speed))
                    return instant
                }
                return clock.now()
            case .paused(let held, let speed):
                let target = max(held, instant)
                state = .paused(at: target, speed: speed)
                return target
            }
        }
    }
}
