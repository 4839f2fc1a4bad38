import Foundation

/// A value as written after `=` in the config file: a word or number, a quoted string, or a
/// list in brackets. Strings may be quoted ("dark") or bare (dark), as in TOML and as people
/// write them.
enum ConfigValue: Hashable, Sendable {
    case scalar(String, quoted: Bool)
    case list([String])

    func word() throws(ConfigValueError) -> String {
        guard case .scalar(let text, _) = self, !text.isEmpty else { throw .notAllowed }
        return text
    }

    func integer(in range: ClosedRange<Int>) throws(ConfigValueError) -> Int {
        guard case .scalar(let text, false) = self, let value = Int(text) else { throw .notAllowed }
        guard range.contains(value) else { throw .outOfRange }
        return value
    }

    func number(in range: ClosedRange<Double>) throws(ConfigValueError) -> Double {
        guard case .scalar(let text, false) = self, let value = Double(text), value.isFinite else {
            throw .notAllowed
        }
        guard range.contains(value) else { throw .outOfRange }
        return value
    }

    func switchValue() throws(ConfigValueError) -> Bool {
        switch try word().lowercased() {
        case "true", "on", "yes": return true
        case "false", "off", "no": return false
        default: throw .notAllowed
        }
    }

    func list() throws(ConfigValueError) -> [String] {
        switch self {
        case .list(let items): return items
        case .scalar(let text, _):
            // A bare `TikTok, YouTube` is read as the list it plainly is.
            return text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
    }

    /// Parses the text after `=` (comment already removed).
    static func parse(_ raw: String) throws(ConfigValueError) -> ConfigValue {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw .empty }
        if text.hasPrefix("[") {
            guard text.hasSuffix("]") else { throw .unclosed("]") }
            var items: [String] = []
            var rest = Substring(text.dropFirst().dropLast())
            while true {
                rest = rest.drop { $0 == " " || $0 == "\t" }
                if rest.isEmpty { break }
                if rest.first == "\"" {
                    let (item, after) = try quoted(rest)
                    items.append(item)
                    rest = after.drop { $0 == " " || $0 == "\t" }
                } else {
                    let end = rest.firstIndex(of: ",") ?? rest.endIndex
                    let item = rest[..<end].trimmingCharacters(in: .whitespaces)
                    if item.isEmpty { throw .notAllowed }
                    items.append(item)
                    rest = rest[end...]
                }
                if rest.isEmpty { break }
                guard rest.first == "," else { throw .notAllowed }
                rest = rest.dropFirst()
            }
            return .list(items)
        }
        if text.hasPrefix("\"") {
            let (value, after) = try quoted(Substring(text))
            guard after.allSatisfy({ $0 == " " || $0 == "\t" }) else { throw .notAllowed }
            return .scalar(value, quoted: true)
        }
        return .scalar(text, quoted: false)
    }

    /// A double-quoted string at the start of `text` (with `\"` and `\\` escapes), and what
    /// follows it.
    private static func quoted(_ text: Substring) throws(ConfigValueError) -> (String, Substring) {
        var value = ""
        var index = text.index(after: text.startIndex)
        var escaped = false
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return (value, text[text.index(after: index)...])
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        throw .unclosed("\"")
    }

    /// How a string is written in the file: quoted, with `"` and `\` escaped.
    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Why a value was refused.
enum ConfigValueError: Error, Hashable, Sendable {
    case empty
    case unclosed(String)
    case notAllowed
    case outOfRange
}
