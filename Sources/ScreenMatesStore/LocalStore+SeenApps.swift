import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// An application a real usage source saw that matches none of the user's tracked apps: it
/// counts toward no block, and is listed so the user can file it as vice or productive.
public struct SeenApp: Hashable, Sendable {
    /// The name the source reported (made displayable and cut to `maximumNameLength`).
    public var name: String
    public var source: String
    /// Active seconds over every day recorded.
    public var seconds: Int
    public var days: Int
    public var lastSeenAt: Date

    public static let maximumNameLength = 80

    /// A reported name as it may be stored and shown: no control, bidi or invisible characters
    /// (each becomes U+FFFD), at most `maximumNameLength` characters.
    public static func storableName(_ raw: String) -> String {
        let safe = SafeText.displayable(raw.trimmingCharacters(in: .whitespacesAndNewlines))
        return safe.count > maximumNameLength ? String(safe.prefix(maximumNameLength - 1)) + "…" : safe
    }
}

extension LocalStore {
    /// Sets one day's active seconds for each unplaced application seen (a derivation of the
    /// whole day, so a value replaces the one stored before rather than adding to it).
    public func recordSeenApps(day: LocalDate, source: String, seconds: [String: Int], seenAt: Date)
        throws(StoreError)
    {
        guard !seconds.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO seen_app (day, name, source, seconds, last_seen_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(day, name) DO UPDATE SET seconds = excluded.seconds,
                        last_seen_at = max(last_seen_at, excluded.last_seen_at), source = excluded.source
                    """)
            for (name, value) in seconds {
                try statement.execute(arguments: [
                    day.iso8601, SeenApp.storableName(name), source, max(0, value), Self.milliseconds(seenAt),
                ])
            }
        }
    }

    /// Every unplaced application seen, most time first.
    public func seenApps() throws(StoreError) -> [SeenApp] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT name, max(source) AS source, sum(seconds) AS seconds, count(*) AS days,
                        max(last_seen_at) AS last_seen_at
                    FROM seen_app GROUP BY name ORDER BY sum(seconds) DESC, name
                    """
            ).map { row in
                SeenApp(
                    name: try row.checked("name", in: "seen_app"), source: try row.checked("source", in: "seen_app"),
                    seconds: try row.checked("seconds", in: "seen_app"), days: try row.checked("days", in: "seen_app"),
                    lastSeenAt: Self.date(milliseconds: try row.checked("last_seen_at", in: "seen_app")))
            }
        }
    }
}
