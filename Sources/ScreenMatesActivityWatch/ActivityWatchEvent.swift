import Foundation

/// One event of an ActivityWatch bucket, as far as ScreenMates reads it.
///
/// Decoding never fails on one bad event: a field of the wrong type, a timestamp that is not
/// one, a duration that is negative or not a number make that event `nil` (skipped and
/// counted), never the whole reply unreadable.
public struct ActivityWatchEvent: Hashable, Sendable {
    /// ActivityWatch's id: a heartbeat merged into an event keeps the event's id.
    public var id: Int64?
    public var timestamp: Date
    /// Seconds, as reported (hostile values are caught when the event becomes a span).
    public var duration: Double
    /// `data.app` of a window event.
    public var app: String?
    /// `data.title` of a window event: for matching only, never kept beyond the span.
    public var title: String?
    /// `data.status` of an AFK event: `afk` or `not-afk`.
    public var status: String?

    public init(
        id: Int64? = nil, timestamp: Date, duration: Double, app: String? = nil, title: String? = nil,
        status: String? = nil
    ) {
        self.id = id
        self.timestamp = timestamp
        self.duration = duration
        self.app = app
        self.title = title
        self.status = status
    }
}

/// A reply's events, each decoded on its own.
struct LenientEvent: Decodable {
    let event: ActivityWatchEvent?

    private enum Keys: String, CodingKey { case id, timestamp, duration, data }
    private enum DataKeys: String, CodingKey { case app, title, status }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Keys.self),
            let text = try? container.decode(String.self, forKey: .timestamp),
            let timestamp = ActivityWatchTimestamp.parse(text),
            let duration = try? container.decode(Double.self, forKey: .duration), duration.isFinite, duration >= 0
        else {
            event = nil
            return
        }
        let data = try? container.nestedContainer(keyedBy: DataKeys.self, forKey: .data)
        event = ActivityWatchEvent(
            id: try? container.decode(Int64.self, forKey: .id), timestamp: timestamp, duration: duration,
            app: try? data?.decode(String.self, forKey: .app), title: try? data?.decode(String.self, forKey: .title),
            status: try? data?.decode(String.self, forKey: .status))
    }
}
