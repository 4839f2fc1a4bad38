import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesPostgresGroupStore

/// Logging in as PostgreSQL users expect, on a server of the suite's own (`PostgresLoginServer`):
/// a refused login said as the server says it and not as "out of reach", passwords from
/// `~/.pgpass`, a self-signed server trusted with `sslrootcert`, the certificate and host name
/// checked by default off this machine, and no password for a server that is not verified.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote), .loginServer)
struct PostgresLoginTests {
    private typealias Contract = GroupStoreContract

    private var server: PostgresLoginServer {
        get throws { try #require(PostgresLoginServer.current, "the suite's login server did not start") }
    }

    /// What the first call of a store at `url` fails with (`environment` as the process's).
    private func refusal(_ url: String, environment: [String: String] = [:]) async throws -> GroupStoreError {
        let store = PostgresGroupStore(
            address: try PostgresAddress(url: url, environment: environment), keyring: PostgresTestServer.keyring)
        do {
            _ = try await store.members(code: Contract.unusedCode)
        } catch {
            return error
        }
        Issue.record("\(url) let the store in")
        return .invalidValue("no refusal")
    }

    /// Works: a group can be created and read at `url`.
    private func works(_ url: String, environment: [String: String] = [:]) async throws {
        let store = PostgresGroupStore(
            address: try PostgresAddress(url: url, environment: environment), keyring: PostgresTestServer.keyring)
        // A member on the server's clock (the store is a strict one): today, now.
        let now = Date()
        var ana = Contract.ana
        ana.day = DayCalendar(timeZone: .gmt).day(containing: now)
        ana.lastActive = nil
        ana.lastUpdated = now
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: ana, now: now)
        #expect(try await store.members(code: group.code).map(\.userID) == [ana.userID])
    }

    /// A refusal that someone must act on, said in the server's words, never as out of reach.
    private func expectRefused(_ error: GroupStoreError, saying words: String...) {
        #expect(!error.isTransient, "\(error)")
        #expect(!error.message.contains("cannot be reached"), "\(error.message)")
        for word in words { #expect(error.message.contains(word), "\(error.message)") }
    }

    // MARK: - A refused login, as the server says it

    @Test func aWrongPasswordIsSaidAsTheServerSaysIt() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "right")
        let error = try await refusal(server.url(role, password: "wrong", host: "127.0.0.1", database: database))
        expectRefused(error, saying: "password authentication failed for user \"\(role)\"", "PGPASSWORD", "~/.pgpass")
        #expect(!error.message.contains("wrong"), "the password never shows: \(error.message)")
    }

    /// Through the socket (trust) the server says the role does not exist; over TCP with a
    /// password it says only that the password failed, so as not to tell who exists.
    @Test func anUnknownRoleIsSaidSo() async throws {
        let server = try self.server
        let socket = "postgres://nobody_here@/postgres?host=\(server.directory)&port=\(server.port)"
        expectRefused(try await refusal(socket), saying: "role \"nobody_here\" does not exist", "user name")
    }

    @Test func aRoleThePgHbaRejectsIsToldSo() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw", in: "screenmates_login_rejected")
        let error = try await refusal(server.url(role, password: "pw", host: "127.0.0.1", database: database))
        expectRefused(error, saying: "pg_hba.conf rejects connection", "administrator")
    }

    @Test func aMissingDatabaseIsSaidSo() async throws {
        let server = try self.server
        let (role, _) = try await server.newRole(password: "pw")
        let error = try await refusal(server.url(role, password: "pw", host: "127.0.0.1", database: "no_such_db"))
        expectRefused(error, saying: "database \"no_such_db\" does not exist", "database name")
    }

    @Test func noPasswordAtAllIsSaidWithWhereToPutIt() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw")
        let error = try await refusal(
            server.url(role, host: "127.0.0.1", database: database), environment: ["PGPASSFILE": "/nonexistent"])
        expectRefused(error, saying: "asks for a password", "PGPASSWORD", "~/.pgpass")
    }

    // MARK: - Where the password comes from

    @Test func thePasswordFileSuppliesThePassword() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "se:cr\\et")
        let file = try TemporaryPasswordFile(
            "# ScreenMates\n127.0.0.1:\(server.port):\(database):\(role):se\\:cr\\\\et\n")
        try await works(server.url(role, host: "127.0.0.1", database: database), environment: file.environment)
        // PGPASSWORD comes before the file, and the URL before both.
        var environment = file.environment
        environment["PGPASSWORD"] = "wrong"
        let error = try await refusal(server.url(role, host: "127.0.0.1", database: database), environment: environment)
        expectRefused(error, saying: "password authentication failed")
        try await works(
            server.url(role, password: "se%3Acr%5Cet", host: "127.0.0.1", database: database), environment: environment)
    }

    @Test func aPasswordFileOthersMayReadIsIgnoredWithAWarning() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw")
        let file = try TemporaryPasswordFile("*:*:*:\(role):pw\n", mode: 0o644)
        let url = server.url(role, host: "127.0.0.1", database: database)
        let address = try PostgresAddress(url: url, environment: file.environment)
        #expect(address.passwordFileWarning?.contains("has group or world access") == true)
        expectRefused(try await refusal(url, environment: file.environment), saying: "asks for a password", "chmod 600")
        try file.setMode(0o600)
        #expect(address.passwordFileWarning == nil)
        try await works(url, environment: file.environment)
    }

    // MARK: - Who the server is

    @Test func aSelfSignedServerIsTrustedWithSSLRootCert() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw")
        let url = server.url(role, host: "127.0.0.2", database: database, "sslrootcert=\(server.certificate)")
        let address = try PostgresAddress(url: url, environment: ["PGPASSWORD": "pw"])
        #expect(address.tls == .verifyFull && address.isServerVerified && !address.isThisMachine)
        try await works(url, environment: ["PGPASSWORD": "pw"])
        let encrypted = try await PostgresTestServer.withConnection(to: address) { connection in
            try await connection.query(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: .init(label: "t")
            )
            .collect().first?.decode(Bool.self)
        }
        #expect(encrypted == true)
    }

    /// 127.0.0.2 is another machine to the address's rules: by default its certificate is
    /// checked against the system's authorities, which never signed it, and the refusal says
    /// how to trust it or to encrypt without checking.
    @Test func offThisMachineTheDefaultChecksTheCertificate() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw")
        let error = try await refusal(
            server.url(role, host: "127.0.0.2", database: database), environment: ["PGPASSWORD": "pw"])
        expectRefused(error, saying: "certificate", "sslrootcert=", "sslmode=require")
    }

    /// An sslrootcert file that holds another certificate than the server's: the refusal names
    /// that file as the one that did not match, not as if none were given.
    @Test func aWrongCertificateInSSLRootCertIsNamed() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw")
        let other = NSTemporaryDirectory() + "sm-other-" + UUID().uuidString
        defer {
            for suffix in [".crt", ".key"] { try? FileManager.default.removeItem(atPath: other + suffix) }
        }
        let made = try await Command.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=another server",
                "-addext", "subjectAltName=IP:127.0.0.2", "-keyout", other + ".key", "-out", other + ".crt",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let error = try await refusal(
            server.url(role, host: "127.0.0.2", database: database, "sslrootcert=\(other).crt"),
            environment: ["PGPASSWORD": "pw"])
        expectRefused(error, saying: "not signed by the certificate in sslrootcert=\(other).crt", "put this server's")
    }

    /// The certificate names 127.0.0.2 only: reached as 127.0.0.1 it is refused under
    /// verify-full (the host name is checked), and accepted under verify-ca (only who signed it).
    @Test func aCertificateMadeOutToAnotherHostIsRefused() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw")
        let trust = "sslrootcert=\(server.certificate)"
        let error = try await refusal(
            server.url(role, password: "pw", host: "127.0.0.1", database: database, "sslmode=verify-full&" + trust))
        expectRefused(error, saying: "not made out to the host", "sslmode=verify-ca")
        try await works(
            server.url(role, password: "pw", host: "127.0.0.1", database: database, "sslmode=verify-ca&" + trust))
    }

    /// With sslmode=require nothing checks who answers at 127.0.0.2, so the password stays
    /// here — asked for in clear text it would go to whoever is in between. Verified, the same
    /// role logs in with its password in clear text; on this machine it does without TLS.
    @Test func noPasswordGoesToAServerThatIsNotVerified() async throws {
        let server = try self.server
        let (role, database) = try await server.newRole(password: "pw", in: "screenmates_login_cleartext")
        let error = try await refusal(
            server.url(role, password: "pw", host: "127.0.0.2", database: database, "sslmode=require"))
        expectRefused(error, saying: "password is not sent to 127.0.0.2", "sslmode=require", "sslrootcert=")
        try await works(
            server.url(role, password: "pw", host: "127.0.0.2", database: database, "sslrootcert=\(server.certificate)")
        )
        try await works(server.url(role, password: "pw", host: "127.0.0.1", database: database, "sslmode=disable"))
    }
}
