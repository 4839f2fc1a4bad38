import Foundation
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// A PostgreSQL server of the tests' own on which roles log in as they would over a network
/// (`.ci/postgres start-login`): TCP on 127.0.0.1 and 127.0.0.2, TLS with a self-signed
/// certificate made out to IP 127.0.0.2 only, passwords checked with scram-sha-256 — in clear
/// text for members of `screenmates_login_cleartext`, never for members of
/// `screenmates_login_rejected`. To the address rules 127.0.0.2 is another machine; the
/// superuser reaches the server through its socket, without a password.
struct PostgresLoginServer: Sendable {
    let directory: String
    let port: Int

    /// The server for the tests of a suite with the `.loginServer` trait.
    @TaskLocal static var current: PostgresLoginServer?

    /// The server's certificate (self-signed, so also the one to trust).
    var certificate: String { directory + "/server.crt" }

    /// The superuser's address, through the socket.
    var adminAddress: PostgresAddress {
        get throws { try PostgresAddress(url: "postgres://screenmates@/postgres?host=\(directory)&port=\(port)") }
    }

    /// A new login role with `password` (in `group`, when given) and a new database it owns:
    /// its name and the database's.
    func newRole(password: String, in group: String? = nil) async throws -> (role: String, database: String) {
        let suffix = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let role = "login_" + suffix
        let database = "login_db_" + suffix
        try await PostgresTestServer.execute(
            "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'" + (group.map { " IN ROLE \($0)" } ?? ""),
            "CREATE DATABASE \(database) OWNER \(role)", on: try adminAddress)
        return (role, database)
    }

    /// The URL of `database` as `role` over TCP to `host`, with `parameters` (`sslmode=…`).
    func url(_ role: String, password: String? = nil, host: String, database: String, _ parameters: String = "")
        -> String
    {
        let user = role + (password.map { ":" + $0 } ?? "")
        return "postgres://\(user)@\(host):\(port)/\(database)" + (parameters.isEmpty ? "" : "?" + parameters)
    }
}

/// Starts a `PostgresLoginServer` once for the suite it is given to, and stops it after the
/// suite's last test, whatever happened.
struct LoginServerScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let directory = NSTemporaryDirectory() + "screenmates-login-" + UUID().uuidString
        do {
            let url = try await PostgresTestServer.runScript("start-login", directory)
            let port = try #require(url.split(separator: "=").last.flatMap { Int($0) }, "no port in \(url)")
            try await PostgresLoginServer.$current.withValue(PostgresLoginServer(directory: directory, port: port)) {
                try await function()
            }
        } catch {
            _ = try? await PostgresTestServer.runScript("stop", directory)
            throw error
        }
        _ = try await PostgresTestServer.runScript("stop", directory)
    }
}

extension Trait where Self == LoginServerScope {
    /// A login server for the suite (`PostgresLoginServer.current` in its tests).
    static var loginServer: Self { LoginServerScope() }
}
