import Foundation
import Glibc

/// Where a PostgreSQL group store is, read from a `postgres://` URL in libpq's style.
///
/// `postgres://user:password@host:port/database?sslmode=require` reaches a server over TCP;
/// a host that is a directory (`postgres://user@/database?host=/run/postgresql`, or the
/// directory percent-encoded as the host: `postgres://user@%2Frun%2Fpostgresql/database`) reaches
/// it through the Unix socket in that directory. Without a host it is `/var/run/postgresql`,
/// without a user the name of the user running the program, without a database the user's
/// name, without a password `PGPASSWORD` (so a password need not show in `ps`).
///
/// Unknown query parameters are refused rather than ignored, so a typo is noticed.
public struct PostgresAddress: Hashable, Sendable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Hashable, Sendable {
        case tcp(host: String, port: Int)
        /// The directory that holds the server's socket (`.s.PGSQL.<port>`).
        case socket(directory: String, port: Int)
    }

    /// Whether TCP connections are encrypted, as libpq's `sslmode`.
    public enum TLSMode: String, Hashable, Sendable, CaseIterable {
        /// Never.
        case disable
        /// When the server offers it, without checking its certificate (the default).
        case prefer
        /// Always, without checking the certificate.
        case require
        /// Always, and the certificate must be valid for the host name.
        case verifyFull = "verify-full"
    }

    public var endpoint: Endpoint
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// How long to wait for a connection, and for an answer, before the store counts as
    /// unavailable (`connect_timeout`, in seconds).
    public var timeout: Duration

    public static let defaultSocketDirectory = "/var/run/postgresql"
    public static let defaultPort = 5432
    public static let defaultTimeout: Duration = .seconds(5)

    /// The URL the address was read from, without its password: what messages name.
    public let description: String

    /// Reads `url`; `environment` supplies `PGPASSWORD` and the user name.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(PostgresAddressError)
    {
        let lower = url.lowercased()
        guard let scheme = ["postgres://", "postgresql://"].first(where: { lower.hasPrefix($0) }) else {
            throw .notPostgres(url)
        }
        var rest = Substring(url.dropFirst(scheme.count))
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }

        var user: String?
        var password: String?
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], in: url)
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], in: url)
            } else {
                user = try Self.decode(userInfo, in: url)
            }
        }
        var host: String?
        var port: Int?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .malformed(url, "an IPv6 address lacks its ']'") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { port = try Self.port(after.dropFirst(), in: url) }
        } else if let colon = rest.lastIndex(of: ":") {
            host = try Self.decode(rest[..<colon], in: url)
            port = try Self.port(rest[rest.index(after: colon)...], in: url)
        } else if !rest.isEmpty {
            host = try Self.decode(rest, in: url)
        }
        var database = path.isEmpty ? nil : try Self.decode(path, in: url)
        var tls = TLSMode.prefer
        var timeout = Self.defaultTimeout

        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decode(parts[0], in: url)
            let value = try Self.decode(parts.count > 1 ? parts[1] : "", in: url)
            switch key {
            case "host": host = value
            case "port": port = try Self.port(Substring(value), in: url)
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .malformed(url, "sslmode is one of \(modes), not \"\(value)\"")
                }
                tls = mode
            case "connect_timeout":
                guard let seconds = Double(value), seconds > 0, seconds <= 600 else {
                    throw .malformed(url, "connect_timeout is a number of seconds (up to 600), not \"\(value)\"")
                }
                timeout = .milliseconds(Int64((seconds * 1000).rounded()))
            default:
                throw .malformed(
                    url,
                    "unknown parameter \"\(key)\" (known: host, port, user, password, dbname, sslmode, connect_timeout)"
                )
            }
        }

        let resolvedUser = user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.currentUserName(environment: environment)
        let resolvedPort = port ?? Self.defaultPort
        let resolvedHost = host.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultSocketDirectory
        if resolvedHost.hasPrefix("/") {
            endpoint = .socket(directory: resolvedHost, port: resolvedPort)
        } else {
            endpoint = .tcp(host: resolvedHost, port: resolvedPort)
        }
        self.user = resolvedUser
        self.password = password ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        self.database = database.flatMap { $0.isEmpty ? nil : $0 } ?? resolvedUser
        self.tls = tls
        self.timeout = timeout
        self.description = Self.withoutPassword(url)
    }

    /// The socket file's path, for a socket endpoint.
    public var socketPath: String? {
        guard case .socket(let directory, let port) = endpoint else { return nil }
        return (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/.s.PGSQL.\(port)"
    }

    /// `url` with any password (in the user part or as a parameter) replaced by `…`.
    public static func withoutPassword(_ url: String) -> String {
        var text = url
        if let schemeEnd = text.range(of: "://") {
            let authorityEnd = text[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
            let authority = text[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "…")
            }
        }
        if let mark = text.firstIndex(of: "?") {
            let parameters = text[text.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
                .map { pair in pair.hasPrefix("password=") ? "password=…" : String(pair) }
            text = String(text[...mark]) + parameters.joined(separator: "&")
        }
        return text
    }

    private static func decode(_ text: Substring, in url: String) throws(PostgresAddressError) -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw .malformed(url, "\"\(text)\" has a broken %-escape")
        }
        return decoded
    }

    private static func port(_ text: Substring, in url: String) throws(PostgresAddressError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw .malformed(url, "the port is a number from 1 to 65535, not \"\(text)\"")
        }
        return port
    }

    private static func currentUserName(environment: [String: String]) -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return environment["USER"] ?? "postgres"
    }
}

/// Why a `postgres://` URL cannot be used; `message` says how to write it.
public enum PostgresAddressError: Error, Hashable, Sendable {
    case notPostgres(String)
    case malformed(String, String)

    public var message: String {
        switch self {
        case .notPostgres(let url):
            return "\"\(PostgresAddress.withoutPassword(url))\" is not a postgres:// URL."
        case .malformed(let url, let detail):
            return
                "The group store URL \(PostgresAddress.withoutPassword(url)) cannot be used: \(detail). "
                + "Write it as postgres://user@host:port/database or postgres://user@/database?host=/socket/directory."
        }
    }
}
