/// One of a member's machines, as the group store will know it: 32 lowercase hexadecimal digits
/// (128 random bits), drawn once by each home. It names the machine among its member's only (ana's
/// id means nothing in bo's name) and is no secret: what a machine writes is taken on its member's
/// identity, as everything else.
public struct MachineID: Hashable, Sendable, CheckedText, CustomStringConvertible {
    public let value: String

    public static let length = 32
    private static let digits = Array("0123456789abcdef")

    public init(validating raw: String) throws(MachineError) {
        guard raw.utf8.count == Self.length, raw.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { throw .notAMachineID("\"" + SafeText.truncated(SafeText.displayable(raw), toCells: 40) + "\"") }
        value = raw
    }

    /// A fresh id.
    public static func random(using generator: inout some RandomNumberGenerator) -> MachineID {
        try! MachineID(validating: String((0..<length).map { _ in digits.randomElement(using: &generator)! }))
    }

    public var description: String { value }
}

/// What a member calls one of their machines: 1 to 32 of the letters A–Z and a–z, the digits,
/// `.`, `_` and `-`; the host's name by default. Names are told apart without regard to case
/// among the member's machines still in use.
public struct MachineName: Hashable, Sendable, CheckedText, CustomStringConvertible {
    public let value: String

    public static let longest = 32

    public init(validating raw: String) throws(MachineError) {
        guard !raw.isEmpty else { throw .emptyName }
        guard raw.utf8.count <= Self.longest else { throw .nameTooLong(raw.count) }
        let wrong = raw.filter { !Self.allowed($0) }
        guard wrong.isEmpty else {
            var seen = Set<Character>()
            throw .nameCharacters(wrong.filter { seen.insert($0).inserted }.map(SafeText.describe))
        }
        value = raw
    }

    private static func allowed(_ character: Character) -> Bool {
        guard character.isASCII, let byte = character.asciiValue else { return false }
        return (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            || byte == 46 || byte == 95 || byte == 45
    }

    /// The name a host's name makes: every run of characters a name may not hold becomes one `-`,
    /// the ends trimmed of `-` and `.`, at most 32 characters kept; `machine` when nothing is left.
    public static func fromHostName(_ host: String) -> MachineName {
        var kept = ""
        for character in host {
            if allowed(character) {
                kept.append(character)
            } else if kept.last != "-" {
                kept.append("-")
            }
        }
        let trimmed = String(String(kept.prefix(longest)).trimmingEnds { $0 == "-" || $0 == "." })
        return (try? MachineName(validating: trimmed)) ?? (try! MachineName(validating: "machine"))
    }

    /// This name, or the first of `name-2`, `name-3`… that none of `taken` is, without regard to
    /// case (the name cut short to make room for the number).
    public func unique(among taken: some Sequence<MachineName>) -> MachineName {
        let keys = Set(taken.map(\.key))
        guard keys.contains(key) else { return self }
        var number = 2
        while true {
            let suffix = "-\(number)"
            let candidate = try! MachineName(validating: String(value.prefix(Self.longest - suffix.count)) + suffix)
            if !keys.contains(candidate.key) { return candidate }
            number += 1
        }
    }

    /// The name as names are compared: lower-cased.
    public var key: String { value.lowercased() }

    public var description: String { value }
}

/// Why a machine's id or name was refused.
public enum MachineError: ExplainedError, Hashable, Sendable {
    case notAMachineID(String)
    case emptyName
    case nameTooLong(Int)
    case nameCharacters([String])

    public var message: String {
        switch self {
        case .notAMachineID(let text):
            return "A machine's id is 32 lowercase hexadecimal digits; \(text) is not one."
        case .emptyName:
            return "Give the machine a name."
        case .nameTooLong(let count):
            return "A machine's name has at most 32 characters; this one has \(count)."
        case .nameCharacters(let names):
            return "A machine's name uses only letters A-Z and a-z, digits, '.', '_' and '-'; remove "
                + names.prefix(5).joined(separator: ", ") + "."
        }
    }
}

extension String {
    fileprivate func trimmingEnds(where trimmed: (Character) -> Bool) -> Substring {
        var text = Substring(self)
        while let first = text.first, trimmed(first) { text.removeFirst() }
        while let last = text.last, trimmed(last) { text.removeLast() }
        return text
    }
}
