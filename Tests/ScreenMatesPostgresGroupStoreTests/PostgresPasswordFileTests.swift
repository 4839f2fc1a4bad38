import Foundation
import Testing

@testable import ScreenMatesPostgresGroupStore

/// `~/.pgpass` read as libpq reads it: fields matched in order, `*` for anything, `\:` and `\\`
/// escapes, comments, the first match wins; the file ignored with a warning unless it is a plain
/// file only its owner may read.
@Suite struct PostgresPasswordFileTests {
    private func password(_ contents: String, host: String = "db.example.org", port: String = "5432") -> String? {
        PostgresPasswordFile.password(in: Data(contents.utf8), host: host, port: port, database: "groups", user: "ana")
    }

    @Test func theFirstMatchingLineGivesThePassword() {
        #expect(password("db.example.org:5432:groups:ana:first\n*:*:*:*:second\n") == "first")
        #expect(password("other:5432:groups:ana:no\n*:*:*:*:second\n") == "second")
        #expect(password("db.example.org:5433:groups:ana:no\n") == nil, "another port")
        #expect(password("db.example.org:5432:groups:bo:no\n") == nil, "another user")
        #expect(password("db.example.org:*:groups:ana:any-port") == "any-port", "no newline at the end")
        #expect(password("*:5432:*:ana:windows\r\n") == "windows", "a CRLF line")
    }

    @Test func commentsAndEmptyLinesAreSkipped() {
        #expect(password("# *:*:*:*:commented\n\n*:*:*:*:real\n") == "real")
    }

    /// A backslash escapes the next character in every field; the password ends at the first
    /// unescaped colon (what follows is ignored, as libpq does).
    @Test func escapesAsLibpqReadsThem() {
        #expect(password("*:*:*:*:a\\:b\\\\c\n") == "a:b\\c")
        #expect(password("*:*:*:*:pw:trailing\n") == "pw")
        #expect(password("db\\.example.org:5432:groups:ana:escaped-host\n") == "escaped-host")
        #expect(
            PostgresPasswordFile.password(
                in: Data("h\\:1:5432:groups:ana:colon-host\n".utf8), host: "h:1", port: "5432", database: "groups",
                user: "ana") == "colon-host")
        #expect(password("db.example.org\\") == nil, "a line that ends in a backslash matches nothing")
    }

    /// The default socket directory (like no host) is matched as `localhost`; another socket
    /// directory as its path.
    @Test func aSocketIsMatchedAsLibpqMatchesIt() throws {
        let file = try TemporaryPasswordFile("localhost:5432:groups:ana:default-socket\n/tmp/pg:5433:groups:ana:own\n")
        let passwords = PostgresPasswordFile(path: file.path)
        #expect(
            passwords.lookup(
                endpoint: .socket(directory: PostgresAddress.defaultSocketDirectory, port: 5432), database: "groups",
                user: "ana") == .password("default-socket"))
        #expect(
            passwords.lookup(endpoint: .socket(directory: "/tmp/pg", port: 5433), database: "groups", user: "ana")
                == .password("own"))
        #expect(
            passwords.lookup(endpoint: .tcp(host: "localhost", port: 5432), database: "groups", user: "ana")
                == .password("default-socket"))
    }

    @Test func aFileOthersMayReadIsIgnoredWithAWarning() throws {
        let file = try TemporaryPasswordFile("*:*:*:*:pw\n", mode: 0o640)
        let lookup = PostgresPasswordFile(path: file.path).lookup(
            endpoint: .tcp(host: "h", port: 5432), database: "g", user: "ana")
        #expect(
            lookup
                == .ignored(
                    warning: "password file \"\(file.path)\" has group or world access; "
                        + "permissions should be u=rw (0600) or less"))
        let directory = PostgresPasswordFile(path: NSTemporaryDirectory()).lookup(
            endpoint: .tcp(host: "h", port: 5432), database: "g", user: "ana")
        #expect(directory == .ignored(warning: "password file \"\(NSTemporaryDirectory())\" is not a plain file"))
        let missing = PostgresPasswordFile(path: "/nonexistent/.pgpass").lookup(
            endpoint: .tcp(host: "h", port: 5432), database: "g", user: "ana")
        #expect(missing == .none)
    }

    @Test func theFileNamedByPGPASSFILEComesFirst() {
        #expect(PostgresPasswordFile(environment: ["PGPASSFILE": "/etc/pw", "HOME": "/home/ana"])?.path == "/etc/pw")
        #expect(PostgresPasswordFile(environment: ["HOME": "/home/ana/"])?.path == "/home/ana/.pgpass")
    }
}

/// A password file of a test's own, removed when the test lets go of it.
final class TemporaryPasswordFile: Sendable {
    let path = NSTemporaryDirectory() + "screenmates-pgpass-" + UUID().uuidString

    init(_ contents: String, mode: Int = 0o600) throws {
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        try setMode(mode)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var environment: [String: String] { ["PGPASSFILE": path] }

    func setMode(_ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
}
