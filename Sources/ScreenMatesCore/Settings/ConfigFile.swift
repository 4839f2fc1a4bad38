import Foundation

/// The readable config file (`config.toml` in the data directory): one `key = value` per line,
/// `#` comments, strings quoted or bare, lists in brackets. What the program writes is valid
/// TOML; what it reads is a little more forgiving (`on`/`off`, bare words).
///
/// Reading never fails as a whole: a line that cannot be read is reported with its number and
/// key and skipped, so every other key still counts and that one keeps its saved value.
/// Writing a key changes its own line only, so comments and the order of the file survive.
public struct ConfigFile: Hashable, Sendable {
    /// The file's lines, without their line ends.
    public private(set) var lines: [String]

    public init(text: String) {
        var lines = text.components(separatedBy: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        if lines.last == "" { lines.removeLast() }
        self.lines = lines
    }

    /// The file's text, each line ended by a newline.
    public var text: String { lines.map { $0 + "\n" }.joined() }

    /// A line the reader could not use.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// 1-based.
        public var line: Int
        /// The key the line sets, where one could be read.
        public var key: String?
        public var reason: String

        public var description: String {
            "line \(line)" + (key.map { " (\(SafeText.displayable($0)))" } ?? "") + ": \(reason)"
        }
    }

    /// The preferences the file sets, and the lines it could not use.
    public func read() -> (preferences: Preferences, problems: [Problem]) {
        var preferences = Preferences()
        var problems: [Problem] = []
        for (index, line) in lines.enumerated() {
            let content = Self.removingComment(line).trimmingCharacters(in: .whitespaces)
            if content.isEmpty { continue }
            let number = index + 1
            guard let equals = content.firstIndex(of: "=") else {
                problems.append(
                    Problem(line: number, key: nil, reason: "expected `key = value`, found \"\(Self.shown(content))\""))
                continue
            }
            let name = content[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                problems.append(
                    Problem(line: number, key: nil, reason: "no key before `=`; expected `key = value`"))
                continue
            }
            guard let key = ConfigKey(rawValue: name) else {
                let known = ConfigKey.allCases.map(\.rawValue).joined(separator: ", ")
                problems.append(Problem(line: number, key: name, reason: "unknown key; the keys are \(known)"))
                continue
            }
            let rawValue = String(content[content.index(after: equals)...])
            do throws(ConfigValueError) {
                try preferences.set(key, try ConfigValue.parse(rawValue))
            } catch {
                let shown = Self.shown(rawValue.trimmingCharacters(in: .whitespaces))
                let reason =
                    switch error {
                    case .empty: "no value; expected \(key.allowed)"
                    case .unclosed(let mark): "\(shown) is missing its closing \(mark)"
                    case .notAllowed: "\(shown) is not allowed; expected \(key.allowed)"
                    case .outOfRange: "\(shown) is out of range; expected \(key.allowed)"
                    }
                problems.append(Problem(line: number, key: key.rawValue, reason: reason))
            }
        }
        return (preferences, problems)
    }

    /// Sets `key` to `value` (already in the file's syntax, see `ConfigFile.value`): replaces
    /// the key's line, or adds one at the end with its explanation above it.
    public mutating func set(_ key: ConfigKey, to value: String) {
        let line = "\(key.rawValue) = \(value)"
        let existing = lines.indices.filter { Self.key(of: lines[$0]) == key.rawValue }
        if let first = existing.first {
            lines[first] = line
            for index in existing.dropFirst().reversed() { lines.remove(at: index) }
        } else {
            lines.append("# " + key.summary)
            lines.append(line)
        }
    }

    /// The 1-based number of the last line that sets `key` (the one that counts).
    public func lineNumber(of key: ConfigKey) -> Int? {
        lines.indices.last { Self.key(of: lines[$0]) == key.rawValue }.map { $0 + 1 }
    }

    /// A value written as the file writes it.
    public static func value(_ text: String) -> String { ConfigValue.quote(text) }
    public static func value(_ number: Int) -> String { String(number) }
    public static func value(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(format: "%.1f", number) : String(number)
    }
    public static func value(_ flag: Bool) -> String { flag ? "true" : "false" }
    public static func value(_ list: [String]) -> String {
        "[" + list.map(ConfigValue.quote).joined(separator: ", ") + "]"
    }

    /// The first lines of a new file.
    public static let header = [
        "# ScreenMates settings. One `key = value` per line; `#` starts a comment.",
        "# This file wins over the settings saved in local.sqlite for every key it sets;",
        "# the settings screen (s) and `screenmates config set` change both.",
    ]

    /// The key a line sets, if it reads as `key = …`.
    static func key(of line: String) -> String? {
        let content = removingComment(line)
        guard let equals = content.firstIndex(of: "=") else { return nil }
        return content[..<equals].trimmingCharacters(in: .whitespaces)
    }

    /// The line without a `#` comment (a `#` inside a quoted string is kept).
    static func removingComment(_ line: String) -> String {
        var inQuotes = false
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if escaped {
                escaped = false
            } else if character == "\\" && inQuotes {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == "#" && !inQuotes {
                return String(line[..<index])
            }
        }
        return line
    }

    /// Text from the file as a message quotes it: safe for a terminal, and not too long.
    private static func shown(_ text: String) -> String {
        SafeText.truncated(SafeText.displayable(text), toCells: 40, ellipsis: "…")
    }
}
