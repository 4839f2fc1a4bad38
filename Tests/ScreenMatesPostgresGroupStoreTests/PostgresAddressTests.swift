import Foundation
import Testing

@testable import ScreenMatesPostgresGroupStore

/// `postgres://` URLs as libpq reads them: TCP and Unix-socket forms, defaults, refusals; what is
/// checked of the server, and where the password comes from and when it may be sent.
@Suite struct PostgresAddressTests {
    private let environment = ["USER": "ana"]

    @Test func aTCPAddressWithEverything() throws {
        let address = try PostgresAddress(
            url: "postgres://bo:s%40cret@db.example.org:6543/groups?sslmode=require&connect_timeout=2.5",
            environment: environment)
        #expect(address.endpoint == .tcp(host: "db.example.org", port: 6543))
        #expect(address.user == "bo")
        #expect(address.password == "s@cret")
        #expect(address.database == "groups")
        #expect(address.tls == .require)
        #expect(address.timeout == .milliseconds(2500))
        #expect(address.description == "postgres://bo:…@db.example.org:6543/groups?sslmode=require&connect_timeout=2.5")
    }

    @Test func theUnixSocketForms() throws {
        let byParameter = try PostgresAddress(url: "postgres://bo@/groups?host=/tmp/pg", environment: environment)
        #expect(byParameter.endpoint == .socket(directory: "/tmp/pg", port: 5432))
        #expect(byParameter.socketPath == "/tmp/pg/.s.PGSQL.5432")
        let encoded = try PostgresAddress(url: "postgresql://bo@%2Frun%2Fpg:5433/groups", environment: environment)
        #expect(encoded.endpoint == .socket(directory: "/run/pg", port: 5433))
        #expect(encoded.socketPath == "/run/pg/.s.PGSQL.5433")
        let bare = try PostgresAddress(url: "postgres:///groups", environment: environment)
        #expect(bare.endpoint == .socket(directory: "/var/run/postgresql", port: 5432))
    }

    @Test func defaultsFollowLibpq() throws {
        let address = try PostgresAddress(url: "postgres://db.example.org", environment: ["PGPASSWORD": "pw"])
        #expect(address.endpoint == .tcp(host: "db.example.org", port: 5432))
        #expect(address.database == address.user, "the database is named after the user")
        #expect(address.password == "pw")
        #expect(address.timeout == PostgresAddress.defaultTimeout)
        let ipv6 = try PostgresAddress(url: "postgres://bo@[::1]:5433/g")
        #expect(ipv6.endpoint == .tcp(host: "::1", port: 5433))
    }

    /// Off this machine the default checks the certificate and the host name; on it (a socket,
    /// localhost, 127.0.0.1, ::1) it stays libpq's `prefer`; a root certificate asks for the check
    /// anywhere.
    @Test func theServerIsCheckedByDefaultOffThisMachine() throws {
        for host in ["db.example.org", "127.0.0.2", "10.0.0.7", "[2001:db8::1]"] {
            let address = try PostgresAddress(url: "postgres://bo@\(host)/g", environment: environment)
            #expect(address.tls == .verifyFull && address.tlsIsDefault && !address.isThisMachine, "\(host)")
            #expect(address.isServerVerified)
        }
        for host in ["localhost", "LOCALHOST", "127.0.0.1", "[::1]", "%2Frun%2Fpg", ""] {
            let address = try PostgresAddress(url: "postgres://bo@\(host)/g", environment: environment)
            #expect(address.tls == .prefer && address.isThisMachine && !address.isServerVerified, "\(host)")
        }
        let trusted = try PostgresAddress(url: "postgres://bo@localhost/g?sslrootcert=/etc/server.pem")
        #expect(trusted.tls == .verifyFull && trusted.rootCertificate == "/etc/server.pem")
        let chosen = try PostgresAddress(url: "postgres://bo@db.example.org/g?sslmode=require")
        #expect(chosen.tls == .require && !chosen.tlsIsDefault && !chosen.isServerVerified)
        let pinned = try PostgresAddress(url: "postgres://bo@db.example.org/g?sslmode=require&sslrootcert=/s.pem")
        #expect(pinned.isServerVerified, "require with a root certificate checks the chain, as libpq's verify-ca")
        let preferred = try PostgresAddress(url: "postgres://bo@db.example.org/g?sslmode=prefer&sslrootcert=/s.pem")
        #expect(!preferred.isServerVerified, "prefer goes on unencrypted when TLS is refused")
        #expect(try PostgresAddress(url: "postgres://bo@h/g?sslmode=verify-ca").tls == .verifyCA)
        #expect(try PostgresAddress(url: "postgres://bo@h/g?sslmode=allow").tls == .allow)
        let system = try PostgresAddress(url: "postgres://bo@localhost/g?sslrootcert=system")
        #expect(system.tls == .verifyFull && system.rootCertificate == nil)
        #expect(throws: PostgresAddressError.self) {
            try PostgresAddress(url: "postgres://bo@h/g?sslrootcert=system&sslmode=require")
        }
    }

    /// As libpq: the URL's password, else PGPASSWORD, else the password file; an empty password
    /// or the `…` an old home remembered is none.
    @Test func passwordsComeFromTheURLThenPGPASSWORDThenTheFile() throws {
        let file = try TemporaryPasswordFile("localhost:5432:g:bo:from-file\n")
        let both = file.environment.merging(["PGPASSWORD": "from-env"]) { $1 }
        func password(_ url: String, _ environment: [String: String]) throws -> String? {
            try PostgresAddress(url: url, environment: environment).passwordForConnection
        }
        let url = "postgres://bo@localhost/g"
        #expect(try password("postgres://bo:from-url@localhost/g", both) == "from-url")
        #expect(try password(url, both) == "from-env")
        #expect(try password(url, file.environment) == "from-file")
        #expect(try password("postgres://bo:@localhost/g", both) == "from-env")
        let standIn = try PostgresAddress(url: "postgres://bo:…@localhost/g?password=…", environment: file.environment)
        #expect(standIn.password == nil && standIn.passwordForConnection == "from-file")
        // The file is read when a connection is made, for the user and database then set.
        var other = try PostgresAddress(url: url, environment: file.environment)
        other.user = "ana"
        #expect(other.passwordForConnection == nil)
    }

    /// A password goes off this machine only to a server whose certificate is checked: with
    /// `require`, `prefer` or `disable` to another host it is held back and the connection is
    /// refused saying why and what to do; on this machine anything goes.
    @Test func noPasswordGoesToAServerThatIsNotVerified() throws {
        for mode in ["require", "prefer", "allow", "disable"] {
            let address = try PostgresAddress(url: "postgres://bo:pw@db.example.org/g?sslmode=\(mode)")
            #expect(address.passwordForConnection == nil)
            #expect(address.clientConfiguration(applicationName: "t").password == nil)
            let error = try #require(throws: PostgresAddressError.self) {
                try address.connectionConfiguration(applicationName: "t")
            }
            #expect(error == .passwordNeedsVerifiedServer(host: "db.example.org", mode: address.tls))
            #expect(error.message.contains("sslrootcert=") && error.message.contains("sslmode=\(mode)"), "\(error)")
            #expect(!error.message.contains("pw@"))
        }
        let verified = try PostgresAddress(url: "postgres://bo:pw@db.example.org/g")
        #expect(try verified.connectionConfiguration(applicationName: "t").password == "pw")
        let local = try PostgresAddress(url: "postgres://bo:pw@127.0.0.1/g?sslmode=disable")
        #expect(try local.connectionConfiguration(applicationName: "t").password == "pw")
        let noPassword = try PostgresAddress(url: "postgres://bo@db.example.org/g?sslmode=require", environment: [:])
        #expect(throws: Never.self) { try noPassword.connectionConfiguration(applicationName: "t") }
    }

    @Test func aRootCertificateThatCannotBeReadIsSaidSo() throws {
        let missing = try PostgresAddress(url: "postgres://bo@db.example.org/g?sslrootcert=/nonexistent/server.pem")
        let error = try #require(throws: PostgresAddressError.self) {
            try missing.connectionConfiguration(applicationName: "t")
        }
        #expect(error.message.contains("/nonexistent/server.pem") && error.message.contains("PEM"), "\(error)")
    }

    /// What a home remembers: the URL with no password and no stand-in for one.
    @Test(arguments: [
        ("postgres://ana:s3cret@db.example.org:5432/g", "postgres://ana@db.example.org:5432/g"),
        ("postgres://ana:…@db.example.org/g?sslmode=require", "postgres://ana@db.example.org/g?sslmode=require"),
        ("postgres://ana@h/g?password=x&sslmode=verify-ca", "postgres://ana@h/g?sslmode=verify-ca"),
        ("postgres://h/g?password=x", "postgres://h/g"),
        ("postgres://ana:@h/g", "postgres://ana@h/g"),
        ("postgres://ana@/g?host=/run/pg", "postgres://ana@/g?host=/run/pg"),
    ])
    func aRememberedURLKeepsNoPassword(_ url: String, _ remembered: String) {
        #expect(PostgresAddress.forgettingPassword(url) == remembered)
    }

    @Test(arguments: [
        ("mysql://bo@host/db", "not a postgres:// URL"),
        ("postgres://bo@host:99999/db", "port"),
        ("postgres://bo@host/db?sslmode=maybe", "sslmode"),
        ("postgres://bo@host/db?colour=blue", "unknown parameter"),
        ("postgres://bo@host/db?connect_timeout=-1", "connect_timeout"),
        ("postgres://bo@[::1/db", "IPv6"),
        ("postgres://bo@host/db?sslmode=verify", "verify-ca"),
    ])
    func badURLsAreRefusedSayingWhy(_ url: String, _ expected: String) {
        #expect {
            _ = try PostgresAddress(url: url)
        } throws: { error in
            (error as? PostgresAddressError)?.message.contains(expected) ?? false
        }
    }

    @Test func passwordsNeverShow() throws {
        let error = try #require(
            throws: PostgresAddressError.self, performing: { try PostgresAddress(url: "postgres://bo:hunter2@h:0/db") })
        #expect(!error.message.contains("hunter2"))
        #expect(
            PostgresAddress.withoutPassword("postgres://h/db?password=hunter2&sslmode=disable")
                == "postgres://h/db?password=…&sslmode=disable")
    }
}
