/// How long to wait before trying again after the `failures`-th failure in a row: `first`,
/// doubling up to `longest`, of which a random part is left out ("equal jitter": the wait is
/// between half the back-off and all of it).
///
/// Thousands of members lose the group store at the same moment when its server restarts or a
/// network goes down; with the same back-off each, they would all come back in the same instant,
/// every time, and a server just started would take their first reads at once (measured at 5,000
/// members: the first looks of dashboards opened within five seconds took the server 40 s to
/// 2 minutes). Half of each wait drawn at random spreads them over the other half.
public struct RetryBackoff: Sendable, Equatable {
    public let first: Duration
    public let longest: Duration

    public init(first: Duration, longest: Duration) {
        self.first = first
        self.longest = max(first, longest)
    }

    /// The back-off itself, before any of it is left out.
    public func ceiling(afterFailures failures: Int) -> Duration {
        let doublings = min(max(failures, 1) - 1, 30)
        var delay = first
        for _ in 0..<doublings where delay < longest { delay *= 2 }
        return min(delay, longest)
    }

    /// The wait: `ceiling` times a factor drawn from `0.5...1` (`draw`, a number in `0..<1`,
    /// chooses it; random unless a test gives it).
    public func delay(afterFailures failures: Int, draw: Double = .random(in: 0..<1)) -> Duration {
        let part = 0.5 + 0.5 * (draw.isFinite ? min(max(draw, 0), 1) : 0)
        return ceiling(afterFailures: failures) * part
    }
}
