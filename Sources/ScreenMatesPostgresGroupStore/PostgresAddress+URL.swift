import Foundation

extension PostgresAddress {
    /// What a `postgres://` URL says, before the defaults and the environment fill in the rest.
    /// Its parameters win over its authority and path, as libpq's do; each part is read in the
    /// order it is written, so the first mistake is the one named.
    struct URLParts {
        var user: String?
        var password: String?
        var host: String?
        var port: Int?
        var database: String?
        var tls: TLSMode?
        var rootCertificate: String?
        var timeout = PostgresAddress.defaultTimeout
        var live = PostgresAddress.LiveMode.auto

        init(url: String) throws(PostgresAddressError) {
            let (authority, path, query) = try Self.sections(of: url)
            try readAuthority(authority, in: url)
            database = path.isEmpty ? nil : try Self.decode(path, in: url)
            for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                try readParameter(pair, in: url)
            }
        }

        /// The URL without its scheme, cut at the first `/` (the path) and the first `?` (the
        /// query).
        private static func sections(of url: String) throws(PostgresAddressError)
            -> (authority: Substring, path: Substring, query: Substring)
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
            return (rest, path, query)
        }

        /// `user:password@host:port`, each part optional; an IPv6 host in brackets.
        private mutating func readAuthority(_ authority: Substring, in url: String) throws(PostgresAddressError) {
            var rest = authority
            if let at = rest.lastIndex(of: "@") {
                let userInfo = rest[..<at]
                rest = rest[rest.index(after: at)...]
                if let colon = userInfo.firstIndex(of: ":") {
                    user = try Self.decode(userInfo[..<colon], in: url)
                    password = try Self.decode(userInfo[userInfo.index(after: colon)...], in: url)
                } else {
                    user = try Self.decode(userInfo, in: url)
                }
            }
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else {
                    throw .malformed(url, "an IPv6 address lacks its ']'")
                }
                host = String(rest[rest.index(after: rest.startIndex)..<close])
                let after = rest[rest.index(after: close)...]
                if after.hasPrefix(":") { port = try Self.port(after.dropFirst(), in: url) }
            } else if let colon = rest.lastIndex(of: ":") {
                host = try Self.decode(rest[..<colon], in: url)
                port = try Self.port(rest[rest.index(after: colon)...], in: url)
            } else if !rest.isEmpty {
                host = try Self.decode(rest, in: url)
            }
        }

        /// One `key=value` of the query; a key libpq's URLs do not know here is refused, so a
        /// typo is noticed.
        private mutating func readParameter(_ pair: Substring, in url: String) throws(PostgresAddressError) {
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
            case "sslrootcert":
                rootCertificate = value.isEmpty ? nil : value
            case "connect_timeout":
                guard let seconds = Double(value), seconds > 0, seconds <= 600 else {
                    throw .malformed(url, "connect_timeout is a number of seconds (up to 600), not \"\(value)\"")
                }
                timeout = .milliseconds(Int64((seconds * 1000).rounded()))
            case "live":
                guard let mode = LiveMode(rawValue: value) else {
                    let modes = LiveMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .malformed(url, "live is one of \(modes), not \"\(value)\"")
                }
                live = mode
            default:
                throw .malformed(
                    url,
                    "unknown parameter \"\(key)\" (known: host, port, user, password, dbname, sslmode, sslrootcert, "
                        + "connect_timeout, live)"
                )
            }
        }

        /// PostgreSQL 16's `sslrootcert=system`: the system's authorities, and nothing weaker
        /// than verify-full.
        mutating func takeSystemRootCertificate(in url: String) throws(PostgresAddressError) {
            guard rootCertificate == "system" else { return }
            rootCertificate = nil
            if let tls, tls != .verifyFull {
                throw .malformed(
                    url, "sslrootcert=system needs sslmode=verify-full (or no sslmode), not \(tls.rawValue)")
            }
            tls = .verifyFull
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
    }
}
