import Foundation

/// Where the app learns the time zone its days are counted in: injected beside the clock, so
/// tests pin it and nothing reads the machine's zone behind their back.
///
/// `system` asks the system afresh on every call (a `TZ` or `/etc/localtime` changed while the
/// dashboard runs is seen at its next check); callers that need it often keep the answer.
public struct TimeZoneSource: Sendable {
    private let read: @Sendable () -> TimeZone

    public init(_ read: @escaping @Sendable () -> TimeZone) {
        self.read = read
    }

    /// The zone now.
    public func current() -> TimeZone { read() }

    /// The machine's zone (`TZ` respected), read again on each call.
    public static let system = TimeZoneSource {
        NSTimeZone.resetSystemTimeZone()
        return TimeZone.current
    }

    /// Always `zone`: for tests, and for a zone named on purpose.
    public static func fixed(_ zone: TimeZone) -> TimeZoneSource {
        TimeZoneSource { zone }
    }
}
