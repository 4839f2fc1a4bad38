import PostgresNIO

extension PostgresAddress {
    /// The TLS settings for a TCP connection, as libpq reads `sslmode`.
    private var tlsConfiguration: TLSConfiguration? {
        guard case .tcp = endpoint, tls != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if tls != .verifyFull { configuration.certificateVerification = .none }
        return configuration
    }

    /// The pool's configuration; `applicationName` shows in `pg_stat_activity`.
    func clientConfiguration(applicationName: String) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS =
                switch (self.tls, tlsConfiguration) {
                case (.disable, _), (_, nil): .disable
                case (.prefer, let settings?): .prefer(settings)
                case (_, let settings?): .require(settings)
                }
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        case .socket:
            configuration = .init(
                unixSocketPath: socketPath!, username: user, password: password, database: database)
        }
        configuration.options.connectTimeout = timeout
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// The configuration of a single connection to the server (the listener's, or a tool's).
    public func connectionConfiguration(applicationName: String) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            var tls = PostgresConnection.Configuration.TLS.disable
            if let settings = tlsConfiguration {
                let context = try NIOSSLContext(configuration: settings)
                tls = self.tls == .prefer ? .prefer(context) : .require(context)
            }
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        case .socket:
            configuration = .init(
                unixSocketPath: socketPath!, username: user, password: password, database: database)
        }
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout / .nanoseconds(1)))
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }
}
