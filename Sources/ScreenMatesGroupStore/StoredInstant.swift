import Foundation

/// Instants as every group store keeps them: whole milliseconds since 1970 (UTC), and days as
/// UTC day numbers. Only an instant every engine can keep (`GroupStoreRules.isStorable`) is
/// written; what is read back is checked by the reader (`StoredGroupRow`), not here.
public enum StoredInstant {
    /// `instant` to the nearest millisecond; one no engine keeps is refused.
    public static func milliseconds(_ instant: Date) throws(GroupStoreError) -> Int64 {
        guard GroupStoreRules.isStorable(instant) else {
            throw .invalidValue("\(instant) is not an instant the group store can keep.")
        }
        return Int64((instant.timeIntervalSince1970 * 1000).rounded())
    }

    /// `milliseconds(_:)` of an instant that may be absent.
    public static func milliseconds(ifAny instant: Date?) throws(GroupStoreError) -> Int64? {
        guard let instant else { return nil }
        return try milliseconds(instant)
    }

    /// The instant `milliseconds` after 1970 began (UTC).
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The day (number) an instant in milliseconds falls on, in UTC.
    public static func dayNumber(ofMilliseconds milliseconds: Int64) -> Int {
        Int((Double(milliseconds) / 86_400_000).rounded(.down))
    }
}
