import Foundation
import PostgresNIO

// What postgres-nio (1.33) does when it logs in, which decides the rules below: it answers
// whatever the server asks for — the password in clear text, its MD5 hash, or SCRAM-SHA-256
// without channel binding (it says "n" in the GS2 header and never speaks SCRAM-SHA-256-PLUS) —
// and has no setting to refuse one; asked for a clear-text password it has none for, it sends an
// empty one. `prefer` falls back to an unencrypted connection when the server says no to TLS;
// `require` fails then; the certificate is checked only as the TLS configuration says
// (`certificateVerification`, against `trustRoots`), the host name against the certificate's
// names (a host given as an IP address against its IP-address names, through the socket's peer
// address). On a connection whose server is not verified, whoever is in between chooses what the
// server asks for, so the only way to keep the password from going out in clear text or as MD5 is
// not to hand it over at all.
//
// SCRAM without channel binding over such a connection is refused too, for two reasons: the
// client cannot tell SCRAM from clear text before it has answered (see above), and SCRAM without
// channel binding would not protect the session anyway — whoever is in between can relay the
// exchange to the real server and keep the logged-in connection, and a captured exchange can be
// guessed at offline. So a password leaves this machine only for a server whose certificate was
// checked (`verify-full`, `verify-ca`, or `require` with `sslrootcert`); through a Unix socket
// or to this machine's loopback there is no one in between.
extension PostgresAddress {
    /// Whether the server's certificate is checked against a trusted authority (or
    /// `sslrootcert`) on every connection: `prefer` and `allow` never count, since a refusal of
    /// TLS (by anyone in between) makes them go on unencrypted.
    public var isServerVerified: Bool {
        switch tls {
        case .verifyCA, .verifyFull: true
        case .require: rootCertificate != nil
        case .disable, .allow, .prefer: false
        }
    }

    /// The password to log in with: the URL's, else `PGPASSWORD`, else the password file's line
    /// for this host, port, database and user. Nil, without reading the file, when it may not be
    /// sent (see `isServerVerified`); `connectionConfiguration` refuses then instead.
    public var passwordForConnection: String? {
        guard isThisMachine || isServerVerified else { return nil }
        return availablePassword
    }

    /// Why the password file was not read, when it would have been (no password in the URL nor
    /// in `PGPASSWORD`): group or world access, or not a plain file. Worth telling the user, as
    /// libpq does on standard error.
    public var passwordFileWarning: String? {
        guard password == nil, case .ignored(let warning) = lookUpPasswordFile() else { return nil }
        return warning
    }

    private var availablePassword: String? {
        if let password { return password }
        if case .password(let found) = lookUpPasswordFile() { return found }
        return nil
    }

    private func lookUpPasswordFile() -> PostgresPasswordFile.Lookup {
        passwordFile?.lookup(endpoint: endpoint, database: database, user: user) ?? .none
    }

    /// The TLS settings for a TCP connection, as libpq reads `sslmode` and `sslrootcert`.
    private var tlsConfiguration: TLSConfiguration? {
        guard case .tcp = endpoint, tls != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate { configuration.trustRoots = .file(rootCertificate) }
        configuration.certificateVerification =
            switch tls {
            case .verifyFull: .fullVerification
            case .verifyCA: .noHostnameVerification
            // With a root certificate libpq checks the chain in every mode that encrypts.
            default: rootCertificate == nil ? .none : .noHostnameVerification
            }
        return configuration
    }

    /// Refuses what a connection must not be made with: a password for a server that is not
    /// verified, a root certificate file that cannot be read.
    private func checkBeforeConnecting() throws(PostgresAddressError) {
        guard case .tcp(let host, _) = endpoint else { return }
        if !isThisMachine && !isServerVerified && availablePassword != nil {
            throw .passwordNeedsVerifiedServer(host: host, mode: tls)
        }
        if let rootCertificate, tls != .disable {
            do {
                if try NIOSSLCertificate.fromPEMFile(rootCertificate).isEmpty {
                    throw PostgresAddressError.unreadableRootCertificate(
                        path: rootCertificate, reason: "it holds no certificate")
                }
            } catch let error as PostgresAddressError {
                throw error
            } catch {
                let reason =
                    FileManager.default.isReadableFile(atPath: rootCertificate)
                    ? "it holds no PEM certificate" : "no such file, or it cannot be read"
                throw .unreadableRootCertificate(path: rootCertificate, reason: reason)
            }
        }
    }

    /// The pool's configuration; `applicationName` shows in `pg_stat_activity`. It cannot
    /// refuse: a password that may not be sent is left out, and the first connection, made with
    /// `connectionConfiguration`, says why.
    func clientConfiguration(applicationName: String) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS =
                switch (self.tls, tlsConfiguration) {
                case (.disable, _), (_, nil): .disable
                case (.allow, let settings?), (.prefer, let settings?): .prefer(settings)
                case (_, let settings?): .require(settings)
                }
            configuration = .init(
                host: host, port: port, username: user, password: passwordForConnection, database: database,
                tls: tls)
        case .socket:
            configuration = .init(
                unixSocketPath: socketPath!, username: user, password: passwordForConnection, database: database)
        }
        configuration.options.connectTimeout = timeout
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        // One member's calls come one after another: one connection, let go of after a few
        // seconds without one (asking every 2 s keeps it), so a member at rest holds at most
        // the listener's (or, asking, this one) and one more while working.
        configuration.options.maximumConnections = 1
        configuration.options.connectionIdleTimeout = Self.idleConnectionTimeout
        // A connection idle for longer than that is closed, so the pool's keep-alive query (every
        // 30 s) would never run; without it, each call leaves one timer less behind.
        configuration.options.keepAliveBehavior = nil
        return configuration
    }

    /// How long the pool keeps a connection nobody uses.
    static let idleConnectionTimeout: Duration = .seconds(10)

    /// The configuration of a single connection to the server (the listener's, or a tool's).
    /// Throws `PostgresAddressError` when a password would go to a server that is not verified,
    /// or the `sslrootcert` file cannot be read.
    public func connectionConfiguration(applicationName: String) throws -> PostgresConnection.Configuration {
        try checkBeforeConnecting()
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            var tls = PostgresConnection.Configuration.TLS.disable
            if let settings = tlsConfiguration {
                let context = try NIOSSLContext(configuration: settings)
                tls = self.tls == .prefer || self.tls == .allow ? .prefer(context) : .require(context)
            }
            configuration = .init(
                host: host, port: port, username: user, password: passwordForConnection, database: database,
                tls: tls)
        case .socket:
            configuration = .init(
                unixSocketPath: socketPath!, username: user, password: passwordForConnection, database: database)
        }
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout / .nanoseconds(1)))
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }
}
