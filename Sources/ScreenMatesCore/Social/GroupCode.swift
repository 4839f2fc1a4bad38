/// A group's invite code: 6 characters from a 32-character alphabet without look-alikes.
///
/// There is no 0, O, 1 or I, so a code read aloud or off a screen cannot be mistyped into
/// another one; 32⁶ ≈ 1.07 billion codes make guessing impractical (failed joins are also
/// rate-limited by the group store). Input is case-insensitive and ignores spaces and dashes.
public struct GroupCode: Hashable, Sendable, CheckedText, CustomStringConvertible {
    public let value: String

    public static let length = 6
    public static let alphabet: [Character] = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
    private static let allowed = Set(alphabet)

    public init(validating raw: String) throws(GroupCodeError) {
        // Only ASCII is upper-cased: "ß" → "SS" or "ſ" → "S" must not turn into code characters.
        let kept = raw.filter { !$0.isWhitespace && $0 != "-" }
        let cleaned = String(kept.map { $0.isASCII ? Character($0.uppercased()) : $0 })
        guard !cleaned.isEmpty else { throw .empty }
        let invalid = cleaned.filter { !GroupCode.allowed.contains($0) }
        if !invalid.isEmpty {
            var seen = Set<Character>()
            throw .invalidCharacters(invalid.filter { seen.insert($0).inserted }.map(SafeText.describe))
        }
        guard cleaned.count == GroupCode.length else { throw .wrongLength(cleaned.count) }
        value = cleaned
    }

    /// A fresh random code.
    public static func random(using generator: inout some RandomNumberGenerator) -> GroupCode {
        let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
        return try! GroupCode(validating: text)
    }

    public var description: String { value }
}

/// Why a group code was refused; `message` says what a code looks like.
public enum GroupCodeError: ExplainedError, Hashable, Sendable {
    case empty
    case wrongLength(Int)
    case invalidCharacters([String])

    public var message: String {
        switch self {
        case .empty:
            return "Enter the 6-character group code you were given."
        case .wrongLength(let count):
            return "A group code has 6 characters; this one has \(count)."
        case .invalidCharacters(let names):
            let listed = names.prefix(5).joined(separator: ", ")
            return "A group code uses only the letters A-Z and digits 2-9 (never 0, O, 1 or I); remove \(listed)."
        }
    }
}
