import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The PostgreSQL server the tests use: `SCREENMATES_TEST_POSTGRES`, a URL whose role may
/// create databases and roles (`.ci/postgres start` prints one; `.ci/run` always sets it).
/// Each store the tests ask for gets a database of its own, so tests never see each other's
/// groups and may run in parallel.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// For `.enabled(if:)`: without a server these tests are skipped, saying how to run them.
    static let isAvailable = url != nil
    static let skipNote: Comment =
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\" (as .ci/run does)"

    /// The server as its superuser. Calls through it (and the addresses made from it) wait up to
    /// 30 s for an answer, not a member's 5 s: beside the whole suite on two cores, a call once
    /// took longer, and a test that wants a store to give up sets its own timeout.
    static var adminAddress: PostgresAddress {
        get throws {
            var address = try PostgresAddress(url: try #require(url, "SCREENMATES_TEST_POSTGRES is not set"))
            address.timeout = .seconds(30)
            return address
        }
    }

    /// A connection of the test's own, as the server's superuser (or `address`).
    static func withConnection<T: Sendable>(
        to address: PostgresAddress? = nil, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let target = try address ?? adminAddress
        let connection = try await PostgresConnection.connect(
            configuration: try target.connectionConfiguration(applicationName: "screenmates-tests"),
            id: Int.random(in: 1...Int.max), logger: Logger(label: "tests"))
        do {
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs statements the test wrote itself (names it generated: nothing from input).
    static func execute(_ statements: String..., on address: PostgresAddress? = nil) async throws {
        try await withConnection(to: address) { connection in
            for statement in statements {
                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "tests"))
                    .collect()
            }
        }
    }

    /// A new, empty database; the address reaches it as the superuser.
    static func newDatabase() async throws -> PostgresAddress {
        try await leftovers.sweep()
        let name = newDatabaseName()
        try await execute("CREATE DATABASE \(name)")
        var address = try adminAddress
        address.database = name
        return address
    }

    /// A new database with the schema in place, letting members choose their clock (for the
    /// contract's fixed instants); the address reaches it as the superuser. It is a copy of one
    /// such database made once per test process (`CREATE DATABASE … TEMPLATE`): migrating a
    /// database for each of hundreds of tests at once kept a busy machine's server from
    /// answering anyone within a minute.
    static func newPreparedDatabase() async throws -> PostgresAddress {
        let template = try await Self.template.name()
        let name = newDatabaseName()
        try await execute("CREATE DATABASE \(name) TEMPLATE \(template)")
        var address = try adminAddress
        address.database = name
        return address
    }

    private static let template = TemplateDatabase()

    /// What this process's databases are named from: the host and the process, so that a later
    /// run on the host knows which were left by test processes that have ended
    /// (`screenmates_test_<host>_<pid>_<random>`).
    private static let processPrefix: String = {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let hash = host.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return "screenmates_test_\(String(hash, radix: 16))_"
    }()

    private static func newDatabaseName() -> String {
        let random = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        return processPrefix + "\(getpid())_" + random
    }

    private static let leftovers = Leftovers()

    /// The databases test processes on this host left behind when they ended, dropped by the
    /// first test of the next process that asks for one: every test makes a database of its own
    /// (about 9 MB each), and a server kept between runs had filled the disk with 8,000 of them.
    private actor Leftovers {
        private var swept: Task<Void, any Error>?

        func sweep() async throws {
            if let swept { return try await swept.value }
            let task = Task<Void, any Error> {
                let names = try await PostgresTestServer.withConnection { connection in
                    try await connection.query(
                        "SELECT datname::text FROM pg_database WHERE starts_with(datname, \(PostgresTestServer.processPrefix))",
                        logger: Logger(label: "tests")
                    ).collect().map { try $0.decode(String.self) }
                }
                for name in names {
                    let pid = name.dropFirst(PostgresTestServer.processPrefix.count).prefix { $0.isNumber }
                    guard let pid = Int32(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
                    try? await PostgresTestServer.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                }
            }
            swept = task
            try await task.value
        }
    }

    /// The prepared database the others are copied from, made by the first test that asks.
    private actor TemplateDatabase {
        private var making: Task<String, any Error>?

        func name() async throws -> String {
            if let making { return try await making.value }
            let task = Task<String, any Error> {
                let address = try await PostgresTestServer.newDatabase()
                let store = PostgresGroupStore(address: address, keyring: PostgresTestServer.keyring)
                try await store.prepare()
                await store.close()
                try await PostgresTestServer.relaxPolicy(of: address)
                return address.database
            }
            making = task
            return try await task.value
        }
    }

    /// A new login role that owns nothing: what a member who is not the database's owner
    /// connects as.
    static func newMemberRole(in database: PostgresAddress) async throws -> PostgresAddress {
        let role = "member_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try await execute("CREATE ROLE \(role) LOGIN", "GRANT CONNECT ON DATABASE \(database.database) TO \(role)")
        var address = database
        address.user = role
        return address
    }

    /// The contract's stores, as the database's owner (`asMember: false`) or as a role that
    /// owns nothing and only calls the schema's functions. The contract's instants are fixed
    /// (2026-11-18), so its stores let members choose their clock; the server's own clock is
    /// tested on its own.
    static func fixture(asMember: Bool = false) -> GroupStoreContract.Fixture {
        @Sendable func database() async throws -> PostgresAddress {
            let owner = try await newPreparedDatabase()
            guard asMember else { return owner }
            return try await newMemberRole(in: owner)
        }
        return GroupStoreContract.Fixture(
            fresh: { PostgresGroupStore(address: try await database(), keyring: keyring) },
            shared: {
                let address = try await database()
                return (
                    PostgresGroupStore(address: address, keyring: keyring),
                    PostgresGroupStore(address: address, keyring: keyring)
                )
            })
    }

    /// Lets members choose their clock (the tests' instants are fixed) and raises the quotas on
    /// challenges (the contract's property checks share a hundred in one group) and on the groups
    /// one login creates (the contract's code check creates many).
    static func relaxPolicy(of database: PostgresAddress) async throws {
        try await execute(
            """
            UPDATE screenmates.store_policy SET members_choose_clock = true, running_challenges_per_group = 1000,
                challenges_shared_per_day = 1000, challenges_per_group = 1000, challenges_joined_per_member = 1000,
                participants_per_challenge = 1000, groups_created_per_login_per_day = 1000
            """, on: database)
    }

    /// The members the tests play, each with a secret of their own (derived from the id and
    /// `salt`, so two stores of one test agree); `reader` (the contract's `ana`) reads.
    static func keyring(salt: String, reader: ScreenMatesCore.UserID = GroupStoreContract.ana.userID) -> MemberKeyring {
        MemberKeyring(reader: { reader }, secret: { secret(for: $0, salt: salt) })
    }

    static let keyring = keyring(salt: "member")

    /// A secret that only `salt` tells apart: 64 hexadecimal digits.
    static func secret(for userID: ScreenMatesCore.UserID, salt: String) -> MemberSecret {
        let digits = Array((salt + ":" + userID.value).utf8).map { String(format: "%02x", $0) }.joined()
        let padded =
            digits.count >= 64 ? String(digits.prefix(128)) : digits + String(repeating: "0", count: 64 - digits.count)
        return try! MemberSecret(validating: padded)
    }

    /// `.ci/postgres` in this checkout, which starts and stops servers of a test's own.
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".ci/postgres").path
    }

    /// Runs `.ci/postgres` and returns what it printed (the server it starts keeps nothing of
    /// its caller's open, so reading its output to the end returns when it does).
    static func runScript(_ arguments: String...) async throws -> String {
        let result = try await Command.run(script, arguments)
        guard result.status == 0 else { throw ScriptFailed(arguments: arguments, status: result.status) }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ScriptFailed: Error {
        let arguments: [String]
        let status: Int32
    }
}
