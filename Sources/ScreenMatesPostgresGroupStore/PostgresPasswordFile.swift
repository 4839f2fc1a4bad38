import Foundation
import Glibc

/// The password file PostgreSQL's own tools read (`~/.pgpass`, or the file `PGPASSFILE` names),
/// read as libpq reads it.
///
/// Each line is `hostname:port:database:username:password`; `*` in any of the first four fields
/// matches anything, `\:` and `\\` stand for `:` and `\`, lines starting with `#` are comments,
/// and the first line that matches gives the password. A host reached through the default socket
/// directory (or with no host at all) is matched as `localhost`; another socket directory is
/// matched as its path. The file is ignored, with a warning, unless only its owner may read it
/// (mode 0600 or stricter) and it is a plain file — a password others can read is no secret.
public struct PostgresPasswordFile: Hashable, Sendable {
    /// What a look-up found.
    public enum Lookup: Hashable, Sendable {
        case password(String)
        /// No file, or no line for this connection.
        case none
        /// The file exists but was not read; the warning says why, in libpq's words.
        case ignored(warning: String)
    }

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The file libpq would read: `PGPASSFILE`, else `.pgpass` in `HOME` (else in the user's
    /// home directory from the password database).
    public init?(environment: [String: String]) {
        if let named = environment["PGPASSFILE"], !named.isEmpty {
            self.init(path: named)
            return
        }
        var home = environment["HOME"] ?? ""
        if home.isEmpty, let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir {
            home = String(cString: directory)
        }
        guard !home.isEmpty else { return nil }
        self.init(path: (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.pgpass")
    }

    /// The password for a connection to `endpoint` as `user` to `database`.
    public func lookup(endpoint: PostgresAddress.Endpoint, database: String, user: String) -> Lookup {
        let host: String
        let port: Int
        switch endpoint {
        case .tcp(let name, let number):
            (host, port) = (name, number)
        case .socket(let directory, let number):
            (host, port) = (directory == PostgresAddress.defaultSocketDirectory ? "localhost" : directory, number)
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return .none }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .ignored(warning: "password file \"\(path)\" is not a plain file")
        }
        guard status.st_mode & (S_IRWXG | S_IRWXO) == 0 else {
            return .ignored(
                warning:
                    "password file \"\(path)\" has group or world access; permissions should be u=rw (0600) or less")
        }
        guard let contents = FileManager.default.contents(atPath: path) else { return .none }
        let password = Self.password(in: contents, host: host, port: String(port), database: database, user: user)
        return password.map(Lookup.password) ?? .none
    }

    /// The password of the first line of `contents` whose fields match, as libpq finds it.
    static func password(in contents: Data, host: String, port: String, database: String, user: String)
        -> String?
    {
        let fields = [host, port, database, user].map { Array($0.utf8) }
        for var line in contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            var rest: ArraySlice<UInt8>? = ArraySlice(line)
            for field in fields { rest = rest.flatMap { remainder(of: $0, afterMatching: field) } }
            guard let rest else { continue }
            return String(decoding: unescapedPassword(rest), as: UTF8.self)
        }
        return nil
    }

    private static let colon = UInt8(ascii: ":")
    private static let backslash = UInt8(ascii: "\\")

    /// What follows the first field of `line` when that field is `*` or spells `token` (`\`
    /// escaping the next character), or nil (libpq's `pwdfMatchesString`).
    private static func remainder(of line: ArraySlice<UInt8>, afterMatching token: [UInt8]) -> ArraySlice<UInt8>? {
        if line.starts(with: [UInt8(ascii: "*"), colon]) { return line.dropFirst(2) }
        var index = line.startIndex
        var tokenIndex = token.startIndex
        while index < line.endIndex {
            var escaped = false
            if line[index] == backslash {
                index += 1
                escaped = true
                guard index < line.endIndex else { return nil }
            }
            if line[index] == colon && tokenIndex == token.endIndex && !escaped { return line[(index + 1)...] }
            guard tokenIndex < token.endIndex, line[index] == token[tokenIndex] else { return nil }
            index += 1
            tokenIndex += 1
        }
        return nil
    }

    /// The password field: up to the first unescaped `:`, with its escapes removed.
    private static func unescapedPassword(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var password: [UInt8] = []
        var index = field.startIndex
        while index < field.endIndex && field[index] != colon {
            if field[index] == backslash && index + 1 < field.endIndex { index += 1 }
            password.append(field[index])
            index += 1
        }
        return password
    }
}
