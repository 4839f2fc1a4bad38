import Foundation
import ScreenMatesCore

/// ActivityWatch's timestamps: ISO 8601 with an offset (`2026-11-20T10:00:00.123456+00:00`,
/// `…Z`); one without an offset is UTC, as ActivityWatch itself reads it. Parsed by hand: exact
/// to the microsecond, fast on a month of events, and `nil` (never a crash) for anything else.
public enum ActivityWatchTimestamp {
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ characters: [UInt8]) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect([45]), let month = digits(2), expect([45]), let day = digits(2),
            expect([84, 116, 32]), let hour = digits(2), expect([58]), let minute = digits(2), expect([58]),
            let second = digits(2), let date = LocalDate(year: year, month: month, day: day), hour < 24,
            minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 0.1
            var count = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if count < 9 { fraction += Double(bytes[index] - 48) * scale }
                scale /= 10
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
        }
        var offset = 0
        if index < bytes.count {
            if bytes[index] == 90 || bytes[index] == 122 {
                index += 1
            } else if bytes[index] == 43 || bytes[index] == 45 {
                let sign = bytes[index] == 45 ? -1 : 1
                index += 1
                guard let hours = digits(2), hours < 24 else { return nil }
                _ = expect([58])
                guard let minutes = digits(2), minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let seconds = date.dayNumber * 86400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// An instant as ActivityWatch takes it in a query string: UTC, microseconds.
    public static func format(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
        let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        let dayNumber = Int(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
        let within = Int(seconds - Int64(dayNumber) * 86400)
        let day = LocalDate(dayNumber: dayNumber)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", day.year, day.month, day.day, within / 3600,
            within / 60 % 60, within % 60, Int(fraction))
    }
}
