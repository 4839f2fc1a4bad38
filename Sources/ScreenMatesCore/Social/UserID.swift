/// A member's user id: made once on a machine (`random(using:)`: 8 characters from lowercase
/// letters and digits without look-alikes) and the name under which the group store keeps that
/// member's profile, totals, challenges and coins.
///
/// What is accepted is wider than what the app makes: 1–64 ASCII letters, digits, `-` or `_`,
/// the ids every group store has always taken (simulated members and other programs use ids of
/// their own), so no store that exists becomes unreadable. Encoded as the plain string, also as
/// a dictionary key.
public struct UserID: Hashable, Sendable, CheckedText, Comparable, CustomStringConvertible, CodingKeyRepresentable {
    public let value: String

    /// The longest id accepted.
    public static let maximumLength = 64
    /// How many characters a new id has.
    public static let generatedLength = 8
    /// What a new id is made of: lowercase letters and digits, without l, o, 0 or 1.
    public static let generatedAlphabet: [Character] = Array("abcdefghijkmnpqrstuvwxyz23456789")

    public init(validating raw: String) throws(UserIDError) {
        let invalid = raw.filter { !UserID.isAllowed($0) }
        if !invalid.isEmpty {
            var seen = Set<Character>()
            throw .invalidCharacters(invalid.filter { seen.insert($0).inserted }.map(SafeText.describe))
        }
        // Only ASCII is left, so characters and bytes count the same.
        guard (1...UserID.maximumLength).contains(raw.count) else { throw .wrongLength(raw.count) }
        value = raw
    }

    private static func isAllowed(_ character: Character) -> Bool {
        guard character.isASCII, let byte = character.asciiValue else { return false }
        return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x5F
    }

    /// A fresh id: 8 characters from `generatedAlphabet`.
    public static func random(using generator: inout some RandomNumberGenerator) -> UserID {
        let text = String((0..<generatedLength).map { _ in generatedAlphabet.randomElement(using: &generator)! })
        return try! UserID(validating: text)
    }

    public var description: String { value }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.value < rhs.value }

    // A dictionary keyed by user ids is a JSON object, as one keyed by strings is.

    public var codingKey: any CodingKey { Key(stringValue: value) }

    public init?<T: CodingKey>(codingKey: T) {
        guard let id = try? UserID(validating: codingKey.stringValue) else { return nil }
        self = id
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Why a user id was refused; `message` says what an id looks like.
public enum UserIDError: ExplainedError, Hashable, Sendable {
    case wrongLength(Int)
    case invalidCharacters([String])

    public var message: String {
        switch self {
        case .wrongLength(let count):
            return "A user id has 1 to \(UserID.maximumLength) characters; this one has \(count)."
        case .invalidCharacters(let names):
            let listed = names.prefix(5).joined(separator: ", ")
            return "A user id uses only the letters A-Z and a-z, digits, '-' and '_'; remove \(listed)."
        }
    }
}
