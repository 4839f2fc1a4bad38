import AsyncHTTPClient
import Foundation
import NIOCore

/// Reads an ActivityWatch server over its REST API (`/api/0/…`), read-only.
///
/// Every call has a deadline, so a server that answers slowly is a clear error, not a hang; a
/// reply is read up to a size limit and decoded leniently (see `ActivityWatchEvent`).
public struct ActivityWatchClient: Sendable {
    public let baseURL: String
    public let timeout: Duration

    public static let defaultURL = "http://127.0.0.1:5600"
    /// The most one reply may hold: a day of one-second events is a few megabytes.
    static let maximumReplyBytes = 512 * 1024 * 1024

    public init(url: String = Self.defaultURL, timeout: Duration = .seconds(10)) throws(ActivityWatchError) {
        var text = url.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let parsed = URL(string: text), parsed.scheme == "http" || parsed.scheme == "https",
            parsed.host != nil, parsed.query == nil
        else { throw .badURL(url) }
        baseURL = text
        self.timeout = timeout
    }

    /// The server's own description; proves it is ActivityWatch.
    public func info() async throws(ActivityWatchError) -> (hostname: String, version: String) {
        struct Info: Decodable {
            var hostname: String
            var version: String
        }
        let info: Info = try decode(try await get("/api/0/info"), what: "its info")
        return (info.hostname, info.version)
    }

    public func buckets() async throws(ActivityWatchError) -> [ActivityWatchBucket] {
        // Each field on its own: a bucket with a field of the wrong type is left out, not the list.
        struct Bucket: Decodable {
            var id, type, hostname, created, lastUpdated: String?
            private enum Keys: String, CodingKey {
                case id, type, hostname, created
                case lastUpdated = "last_updated"
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                id = try? container.decode(String.self, forKey: .id)
                type = try? container.decode(String.self, forKey: .type)
                hostname = try? container.decode(String.self, forKey: .hostname)
                created = try? container.decode(String.self, forKey: .created)
                lastUpdated = try? container.decode(String.self, forKey: .lastUpdated)
            }
        }
        let all: [String: Bucket] = try decode(try await get("/api/0/buckets/"), what: "the bucket list")
        return all.compactMap { key, bucket in
            guard let type = bucket.type, let hostname = bucket.hostname else { return nil }
            return ActivityWatchBucket(
                id: bucket.id ?? key, type: type, hostname: hostname,
                created: bucket.created.flatMap(ActivityWatchTimestamp.parse),
                lastUpdated: bucket.lastUpdated.flatMap(ActivityWatchTimestamp.parse))
        }
    }

    /// The bucket's events that overlap `interval` (ActivityWatch may cut the first and last to
    /// it), and how many could not be read.
    public func events(bucket: String, in interval: Range<Date>) async throws(ActivityWatchError) -> (
        events: [ActivityWatchEvent], skipped: Int
    ) {
        let path =
            "/api/0/buckets/\(Self.escape(bucket))/events?start=\(ActivityWatchTimestamp.format(interval.lowerBound))"
            + "&end=\(ActivityWatchTimestamp.format(interval.upperBound))&limit=-1"
        let body = try await get(path, missingBucket: bucket)
        let decoded: [LenientEvent] = try decode(body, what: "the events of \(bucket)")
        let events = decoded.compactMap(\.event)
        return (events, decoded.count - events.count)
    }

    /// How many of the bucket's events start at or before `instant`.
    public func eventCount(bucket: String, upTo instant: Date) async throws(ActivityWatchError) -> Int {
        let path = "/api/0/buckets/\(Self.escape(bucket))/events/count?end=\(ActivityWatchTimestamp.format(instant))"
        return try decode(try await get(path, missingBucket: bucket), what: "the event count of \(bucket)")
    }

    private func get(_ path: String, missingBucket: String? = nil) async throws(ActivityWatchError) -> ByteBuffer {
        let url = baseURL + path
        let request = HTTPClientRequest(url: url)
        do {
            let response = try await activityWatchHTTP.execute(
                request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
            if response.status == .notFound, let missingBucket {
                throw ActivityWatchError.bucketGone(url: baseURL, bucket: missingBucket)
            }
            guard response.status == .ok else {
                throw ActivityWatchError.badReply(url: baseURL, detail: "HTTP \(response.status.code) for \(path)")
            }
            return try await response.body.collect(upTo: Self.maximumReplyBytes)
        } catch let error as ActivityWatchError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .connectTimeout {
            throw .unreachable(url: baseURL, detail: "no answer within \(timeout.components.seconds) s")
        } catch let error as HTTPClientError {
            throw .unreachable(url: baseURL, detail: "\(error)")
        } catch let error as NIOTooManyBytesError {
            throw .badReply(
                url: baseURL, detail: "a reply larger than \(error.maxBytes ?? Self.maximumReplyBytes) bytes")
        } catch {
            throw .unreachable(url: baseURL, detail: Self.describe(error))
        }
    }

    private func decode<T: Decodable>(_ body: ByteBuffer, what: String) throws(ActivityWatchError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch {
            throw .badReply(url: baseURL, detail: "\(what) is not the JSON it should be")
        }
    }

    /// "connection refused" rather than a type name and an errno.
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return "connection refused"
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    static func escape(_ component: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return component.addingPercentEncoding(withAllowedCharacters: allowed) ?? component
    }
}

/// One HTTP client for the process (never shut down, so never deinitialised). It does not
/// retry a refused connection until the deadline, as the library would by default: a server
/// that is not running is said at once, and the next poll tries again anyway.
private let activityWatchHTTP: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.timeout.connect = .seconds(3)
    configuration.redirectConfiguration = .disallow
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()
