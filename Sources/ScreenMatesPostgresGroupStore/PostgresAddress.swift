import Foundation
import Glibc
import ScreenMatesCore

/// Where a PostgreSQL group store is, read from a `postgres://` URL in libpq's style.
///
/// `postgres://user:password@host:port/database?sslmode=verify-full` reaches a server over TCP;
/// a host that is a directory (`postgres://user@/database?host=/run/postgresql`, or the
/// directory percent-encoded as the host: `postgres://user@%2Frun%2Fpostgresql/database`) reaches
/// it through the Unix socket in that directory. Without a host it is `/var/run/postgresql`,
/// without a user the name of the user running the program, without a database the user's
/// name. The password comes, as with libpq, from the URL, else `PGPASSWORD`, else the password
/// file (`~/.pgpass`, see `PostgresPasswordFile`), so it need not show in `ps`.
///
/// Off this machine the server is checked by default: its certificate must be signed by an
/// authority the system trusts (or by `sslrootcert`) and be made out to the host
/// (`verify-full`); and no password goes to a server that is not checked so (see
/// `passwordForConnection`). Unknown query parameters are refused rather than ignored, so a typo
/// is noticed.
public struct PostgresAddress: Hashable, Sendable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Hashable, Sendable {
        case tcp(host: String, port: Int)
        /// The directory that holds the server's socket (`.s.PGSQL.<port>`).
        case socket(directory: String, port: Int)
    }

    /// Whether TCP connections are encrypted, and what is checked, as libpq's `sslmode`. Without
    /// `sslrootcert` no certificate is checked below `verifyCA`; with it, every mode that
    /// encrypts checks that the certificate is signed by it (as libpq does when it has a root
    /// certificate).
    public enum TLSMode: String, Hashable, Sendable, CaseIterable {
        /// Never.
        case disable
        /// Read as `prefer`: postgres-nio cannot try a connection without TLS first and then one
        /// with it, and encrypting when the server offers it never connects where libpq would not
        /// (a server that only takes TLS is reached either way).
        case allow
        /// When the server offers it (the default on this machine).
        case prefer
        /// Always.
        case require
        /// Always, and the certificate must be signed by a trusted authority (or `sslrootcert`).
        case verifyCA = "verify-ca"
        /// Always, and the certificate must also be made out to the host (the default off this
        /// machine, and with `sslrootcert`).
        case verifyFull = "verify-full"
    }

    public var endpoint: Endpoint
    public var user: String
    /// The password from the URL, else `PGPASSWORD`; the password file is read only when a
    /// connection is made (`passwordForConnection`), for the user and database then set.
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// Whether `tls` is the default for the host (no `sslmode` in the URL), so that a refusal can
    /// say how to choose another.
    public var tlsIsDefault: Bool
    /// The PEM file of the certificates a server's certificate must be signed by (`sslrootcert`):
    /// a self-signed server's own certificate, or its own authority's. Nil: the system's
    /// authorities.
    public var rootCertificate: String?
    /// Where a password missing from the URL and `PGPASSWORD` is looked up (`~/.pgpass`, or
    /// `PGPASSFILE`).
    public var passwordFile: PostgresPasswordFile?
    /// How long to wait for a connection, and for an answer, before the store counts as
    /// unavailable (`connect_timeout`, in seconds).
    public var timeout: Duration
    /// How changes are followed (`live`): LISTEN where notifications reach the client, else
    /// asking for the change number at a steady pace.
    public var live: LiveMode

    /// How a store follows a group's changes, as the URL's `live` says.
    public enum LiveMode: String, Hashable, Sendable, CaseIterable {
        /// LISTEN, checked by a NOTIFY of its own; asking at a steady pace where that does not
        /// come back (a connection pooler in transaction mode, a server without LISTEN).
        case auto
        /// Asking for the change number at a steady pace, never listening.
        case poll
    }

    public static let defaultSocketDirectory = "/var/run/postgresql"
    public static let defaultPort = 5432
    public static let defaultTimeout: Duration = .seconds(5)

    /// The URL the address was read from, without its password: what messages name.
    public let description: String

    /// The stand-in for a password in the URLs messages show (`withoutPassword`): never a
    /// password. Homes of earlier versions remembered their store's URL with it.
    public static let passwordStandIn = "…"

    /// Reads `url`; `environment` supplies `PGPASSWORD`, `PGPASSFILE`, `HOME` and the user name.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(PostgresAddressError)
    {
        var parts = try URLParts(url: url)
        let resolvedUser =
            parts.user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.currentUserName(environment: environment)
        let resolvedPort = parts.port ?? Self.defaultPort
        let resolvedHost = parts.host.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultSocketDirectory
        if resolvedHost.hasPrefix("/") {
            endpoint = .socket(directory: resolvedHost, port: resolvedPort)
        } else {
            endpoint = .tcp(host: resolvedHost, port: resolvedPort)
        }
        try parts.takeSystemRootCertificate(in: url)
        self.user = resolvedUser
        // An empty password, or the stand-in of an old remembered URL, is no password.
        let given = parts.password.flatMap { $0.isEmpty || $0 == Self.passwordStandIn ? nil : $0 }
        self.password = given ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        self.database = parts.database.flatMap { $0.isEmpty ? nil : $0 } ?? resolvedUser
        self.tls = parts.tls ?? Self.defaultTLS(for: endpoint, rootCertificate: parts.rootCertificate)
        self.tlsIsDefault = parts.tls == nil
        self.rootCertificate = parts.rootCertificate
        self.passwordFile = PostgresPasswordFile(environment: environment)
        self.timeout = parts.timeout
        self.live = parts.live
        self.description = Self.withoutPassword(url)
    }

    /// What is checked when the URL does not say: the certificate and the host name off this
    /// machine or with `sslrootcert` (`verify-full`); on this machine, encryption when the
    /// server offers it and no check, as libpq's default.
    static func defaultTLS(for endpoint: Endpoint, rootCertificate: String?) -> TLSMode {
        if rootCertificate != nil { return .verifyFull }
        return isThisMachine(endpoint) ? .prefer : .verifyFull
    }

    /// Whether the server is reached without crossing a network: a Unix socket, or TCP to
    /// `localhost`, `127.0.0.1` or `::1`.
    public var isThisMachine: Bool { Self.isThisMachine(endpoint) }

    static func isThisMachine(_ endpoint: Endpoint) -> Bool {
        switch endpoint {
        case .socket: true
        case .tcp(let host, _): ["localhost", "127.0.0.1", "::1"].contains(host.lowercased())
        }
    }

    /// The socket file's path, for a socket endpoint.
    public var socketPath: String? {
        guard case .socket(let directory, let port) = endpoint else { return nil }
        return (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/.s.PGSQL.\(port)"
    }

    /// `url` with no password at all (neither in the user part nor as a parameter): what a home
    /// remembers, so that later commands take the password from `PGPASSWORD` or the password
    /// file, never from the home.
    public static func forgettingPassword(_ url: String) -> String {
        rewritingPassword(in: url, as: nil)
    }

    /// `url` with any password (in the user part or as a parameter) replaced by `…`.
    public static func withoutPassword(_ url: String) -> String {
        rewritingPassword(in: url, as: passwordStandIn)
    }

    /// `url` with the password of its user part and of its `password` parameter replaced by
    /// `replacement`, or left out with the `:` or the parameter that held it.
    private static func rewritingPassword(in url: String, as replacement: String?) -> String {
        var text = url
        if let schemeEnd = text.range(of: "://") {
            let authorityEnd = text[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
            let authority = text[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                if let replacement {
                    text.replaceSubrange(text.index(after: colon)..<at, with: replacement)
                } else {
                    text.removeSubrange(colon..<at)
                }
            }
        }
        if let mark = text.firstIndex(of: "?") {
            let parameters = text[text.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
                .compactMap { pair -> String? in
                    guard pair.hasPrefix("password=") || pair == "password" else { return String(pair) }
                    return replacement.map { "password=" + $0 }
                }
            text = String(text[..<mark]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        return text
    }

    private static func currentUserName(environment: [String: String]) -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return environment["USER"] ?? "postgres"
    }
}

/// Why a `postgres://` URL cannot be used, or a connection to it is not made; `message` says
/// what to do.
public enum PostgresAddressError: Error, Hashable, Sendable {
    case notPostgres(String)
    case malformed(String, String)
    /// A password would go to `host`, off this machine, over a connection whose server is not
    /// verified (`mode` checks no certificate, or may not even encrypt).
    case passwordNeedsVerifiedServer(host: String, mode: PostgresAddress.TLSMode)
    /// The `sslrootcert` file cannot be read, or holds no PEM certificate.
    case unreadableRootCertificate(path: String, reason: String)

    public var message: String {
        switch self {
        case .notPostgres(let url):
            return "\"\(PostgresAddress.withoutPassword(url))\" is not a postgres:// URL."
        case .malformed(let url, let detail):
            return
                "The group store URL \(PostgresAddress.withoutPassword(url)) cannot be used: \(detail). "
                + "Write it as postgres://user@host:port/database or postgres://user@/database?host=/socket/directory."
        case .passwordNeedsVerifiedServer, .unreadableRootCertificate:
            return reason.prefix(1).uppercased() + reason.dropFirst() + "."
        }
    }

    /// What is wrong, as the end of a sentence ("…: REASON").
    public var reason: String {
        switch self {
        case .notPostgres, .malformed:
            return message
        case .passwordNeedsVerifiedServer(let host, let mode):
            let why =
                switch mode {
                case .disable: "sslmode=disable sends everything unencrypted"
                case .allow, .prefer: "with sslmode=\(mode.rawValue) the connection may not be encrypted"
                default: "with sslmode=\(mode.rawValue) the server's certificate is not checked"
                }
            return
                "the password is not sent to \(SafeText.displayable(host)): \(why), so anyone on the way could ask "
                + "for it. Leave sslmode out (or use verify-full) so that the server's certificate and name are "
                + "checked, and trust a self-signed server with sslrootcert=/path/to/its-certificate.pem"
        case .unreadableRootCertificate(let path, let reason):
            return
                "the sslrootcert file \(SafeText.displayable(path)) cannot be used (\(reason)); give the PEM file "
                + "of the server's own certificate, or of the authority that signed it"
        }
    }
}
