import Foundation

/// A half-open stretch of real time, in whole milliseconds since 1970: `start..<end`.
///
/// Whole milliseconds keep the block arithmetic exact, so the same spans always give the same
/// blocks however they were cut or ordered (no floating-point sums that depend on the order).
public struct TimeSpan: Hashable, Sendable, Comparable {
    public var start: Int64
    public var end: Int64

    public init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    /// The span from `start` lasting `seconds`; `nil` for a duration that is negative, not a
    /// number or beyond any clock (hostile input never becomes a span).
    public init?(start: Date, seconds: Double) {
        guard seconds.isFinite, seconds >= 0, start.timeIntervalSince1970.isFinite,
            abs(start.timeIntervalSince1970) < Self.limitSeconds, seconds < Self.limitSeconds
        else { return nil }
        let from = Self.milliseconds(start)
        self.init(start: from, end: from + Int64((seconds * 1000).rounded(.down)))
    }

    /// Instants beyond ±10,000 years are no one's usage.
    static let limitSeconds = 315_360_000_000.0

    public var milliseconds: Int64 { max(0, end - start) }
    public var isEmpty: Bool { end <= start }

    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool {
        (lhs.start, lhs.end) < (rhs.start, rhs.end)
    }

    /// The part of this span inside `other`, or `nil`.
    public func clipped(to other: TimeSpan) -> TimeSpan? {
        let clipped = TimeSpan(start: max(start, other.start), end: min(end, other.end))
        return clipped.isEmpty ? nil : clipped
    }

    /// The union of `spans`: sorted, non-overlapping, non-touching, no empty span.
    public static func union(_ spans: [TimeSpan]) -> [TimeSpan] {
        var result: [TimeSpan] = []
        for span in spans.filter({ !$0.isEmpty }).sorted() {
            if let last = result.last, span.start <= last.end {
                result[result.count - 1].end = max(last.end, span.end)
            } else {
                result.append(span)
            }
        }
        return result
    }

    /// The intersection of two unions (each as `union` returns it).
    public static func intersection(_ a: [TimeSpan], _ b: [TimeSpan]) -> [TimeSpan] {
        var result: [TimeSpan] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if let common = a[i].clipped(to: b[j]) { result.append(common) }
            if a[i].end < b[j].end { i += 1 } else { j += 1 }
        }
        return result
    }

    /// Total milliseconds of a union.
    public static func total(_ spans: [TimeSpan]) -> Int64 {
        spans.reduce(0) { $0 + $1.milliseconds }
    }
}
