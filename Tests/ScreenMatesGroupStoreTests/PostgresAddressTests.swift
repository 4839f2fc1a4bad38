import Foundation
import ScreenMatesPostgresGroupStore
import Testing

/// `postgres://` URLs as libpq reads them: TCP and Unix-socket forms, defaults, refusals.
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
        #expect(address.tls == .prefer)
        #expect(address.timeout == PostgresAddress.defaultTimeout)
        let ipv6 = try PostgresAddress(url: "postgres://bo@[::1]:5433/g")
        #expect(ipv6.endpoint == .tcp(host: "::1", port: 5433))
    }

    @Test(arguments: [
        ("mysql://bo@host/db", "not a postgres:// URL"),
        ("postgres://bo@host:99999/db", "port"),
        ("postgres://bo@host/db?sslmode=maybe", "sslmode"),
        ("postgres://bo@host/db?colour=blue", "unknown parameter"),
        ("postgres://bo@host/db?connect_timeout=-1", "connect_timeout"),
        ("postgres://bo@[::1/db", "IPv6"),
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
