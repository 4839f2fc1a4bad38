import Foundation

/// How times and durations are written on screen.
public enum TimeFormat {
    /// `0m`, `45m`, `1h 30m`, `2h` — whole minutes, rounded down.
    public static func duration(seconds: Int) -> String {
        let minutes = max(0, seconds) / 60
        let hours = minutes / 60
        let rest = minutes % 60
        if hours == 0 { return "\(rest)m" }
        return rest == 0 ? "\(hours)h" : "\(hours)h \(rest)m"
    }

    /// A countdown: `9h 29m`, `4m`, `<1m`.
    public static func countdown(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return whole <= 0 ? "0m" : "<1m" }
        return duration(seconds: whole)
    }

    /// `just now`, `4m ago`, `3h ago`, `2d ago`; `never` without a time.
    public static func relative(_ instant: Date?, now: Date) -> String {
        guard let instant else { return "never" }
        let seconds = Int(now.timeIntervalSince(instant))
        if seconds < 60 { return "just now" }  // Also for an instant ahead of `now` (clocks differ).
        if seconds < 3600 { return "\(seconds / 60)m ago" }
        if seconds < 86400 { return "\(seconds / 3600)h ago" }
        return "\(seconds / 86400)d ago"
    }

    /// `14:05`.
    public static func clock(hour: Int, minute: Int) -> String {
        String(hour).leftPadded(to: 2) + ":" + String(minute).leftPadded(to: 2)
    }

    /// `2026-11-21T14:31:02Z`.
    public static func iso8601(_ instant: Date) -> String {
        instant.formatted(.iso8601)
    }

    /// `2026-11-21T14:32`: the local wall-clock minute of `instant` in `timeZone` (the next
    /// whole minute with `roundingUp`), in the form `--start-at` takes, so a message can name an
    /// instant the user may type back.
    public static func localMinute(_ instant: Date, timeZone: TimeZone, roundingUp: Bool = false) -> String {
        let minute = (instant.timeIntervalSince1970 / 60).rounded(roundingUp ? .up : .down) * 60
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: minute))
        return String(format: "%04d-%02d-%02dT%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }

    /// `20261121-143102` in UTC: for the names of files kept aside (a damaged database, a
    /// config file moved away when local data is cleared).
    public static func fileStamp(_ instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        return String(format: "%04d%02d%02d-%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// Parses `2026-11-21T14:31:02Z`, `2026-11-21T14:31:02+01:00`, with or without fractional
    /// seconds, or a bare `2026-11-21T14:31` / `2026-11-21` in `timeZone`.
    public static func parseInstant(_ text: String, timeZone: TimeZone) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(trimmed, strategy: .iso8601) { return date }
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = trimmed.split(separator: "T", maxSplits: 1).map(String.init)
        guard let day = parts.first.flatMap(LocalDate.init(iso8601:)) else { return nil }
        var components = DateComponents(year: day.year, month: day.month, day: day.day, hour: 0, minute: 0, second: 0)
        if parts.count == 2 {
            let clock = parts[1].split(separator: ":").map { Int($0) }
            guard (2...3).contains(clock.count), clock.allSatisfy({ $0 != nil }) else { return nil }
            components.hour = clock[0]
            components.minute = clock[1]
            components.second = clock.count == 3 ? clock[2] : 0
            guard (0...23).contains(components.hour!), (0...59).contains(components.minute!),
                (0...59).contains(components.second!)
            else { return nil }
        }
        return calendar.date(from: components)
    }
}
