import Foundation

/// A member's display name: 1–20 letters, digits and underscores.
///
/// Letters and digits are Unicode ones (名前 and José are fine); the name is stored in NFC so
/// the same name typed two ways is the same name. Anything else — spaces, punctuation, emoji,
/// control, escape, bidi or zero-width characters — is rejected with a message naming it.
public struct DisplayName: Hashable, Sendable, CheckedText, CustomStringConvertible {
    public let value: String

    public static let maximumLength = 20

    public init(validating raw: String) throws(DisplayNameError) {
        // Most names are plain ASCII letters, digits and underscores: nothing to trim, normalise
        // or look up, and a large group's members are validated on every fetch.
        if (1...DisplayName.maximumLength).contains(raw.utf8.count), raw.utf8.allSatisfy(DisplayName.isPlainASCII) {
            value = raw
            return
        }
        // Linux Foundation counts U+200B ZERO WIDTH SPACE as whitespace; it is rejected, not trimmed.
        let spaces = CharacterSet.whitespaces.subtracting(CharacterSet(charactersIn: "\u{200B}"))
        let trimmed = raw.trimmingCharacters(in: spaces)
        let normalized = trimmed.precomposedStringWithCanonicalMapping
        guard !normalized.isEmpty else { throw .empty }
        // Judge the text as typed: Linux Foundation's NFC mangles a supplementary-plane scalar
        // followed by a mark ("\u{E0041}\u{301}" becomes "Á"), which would hide a tag character.
        let invalid = trimmed.filter { !DisplayName.isAllowed($0) }
        if !invalid.isEmpty {
            var seen = Set<Character>()
            throw .invalidCharacters(invalid.filter { seen.insert($0).inserted }.map(SafeText.describe))
        }
        guard normalized.count <= DisplayName.maximumLength else { throw .tooLong(normalized.count) }
        value = normalized
    }

    public var description: String { value }

    /// The key that decides uniqueness within a group: names differing only in case clash.
    public var uniquenessKey: String { value.lowercased() }

    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F
    }

    static func isAllowed(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        // A letter must take a cell (a lone Hangul filler jamo is a "letter" that shows nothing),
        // and nothing the display would strip (variation selectors) may ride along.
        guard first == "_" || (isLetterOrDigit(first) && CellWidth.of(first) > 0) else { return false }
        guard !SafeText.hasUnsafeCharacters(String(character)) else { return false }
        // Combining marks may follow a letter (a decomposed accent that has no precomposed form).
        return scalars.dropFirst().allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark: true
            default: false
            }
        }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            true
        default:
            false
        }
    }
}

/// Why a display name was refused; `message` says what to type instead.
public enum DisplayNameError: ExplainedError, Hashable, Sendable {
    case empty
    case tooLong(Int)
    case invalidCharacters([String])

    public var message: String {
        switch self {
        case .empty:
            return "A display name needs at least one letter, digit or underscore."
        case .tooLong(let count):
            return "A display name has at most \(DisplayName.maximumLength) characters; this one has \(count)."
        case .invalidCharacters(let names):
            let listed = names.prefix(5).joined(separator: ", ")
            return "A display name may use only letters, digits and underscores; remove \(listed)."
        }
    }
}
