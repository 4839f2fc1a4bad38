import Foundation

/// A member's display name: 1–20 letters, digits and underscores.
///
/// Letters and digits are Unicode ones (名前 and José are fine); the name is stored in NFC so
/// the same name typed two ways is the same name. Anything else — spaces, punctuation, emoji,
/// control, escape, bidi or zero-width characters — is rejected with a message naming it. Which
/// scalars count is `TextRules`' to say, for the server too; combining marks may follow a letter,
/// up to `TextRules.nameScalars` scalars in all.
public struct DisplayName: Hashable, Sendable, CheckedText, CustomStringConvertible {
    public let value: String

    public static let maximumLength = TextRules.nameLetters

    public init(validating raw: String) throws(DisplayNameError) {
        // Most names are plain ASCII letters, digits and underscores: nothing to trim, normalise
        // or look up, and a large group's members are validated on every fetch.
        if (1...DisplayName.maximumLength).contains(raw.utf8.count), raw.utf8.allSatisfy(DisplayName.isPlainASCII) {
            value = raw
            return
        }
        // Bounded before anything else: trimming and normalising a long run of marks takes time
        // that grows faster than its length (a letter with 160,000 marks took a minute).
        let scalars = raw.unicodeScalars.count
        guard scalars <= TextRules.nameScalars + DisplayName.spaceAround else { throw .tooManyScalars(scalars) }
        // Linux Foundation counts U+200B ZERO WIDTH SPACE as whitespace; it is rejected, not trimmed.
        let spaces = CharacterSet.whitespaces.subtracting(CharacterSet(charactersIn: "\u{200B}"))
        let trimmed = raw.trimmingCharacters(in: spaces)
        let normalized = trimmed.precomposedStringWithCanonicalMapping
        guard !normalized.isEmpty else { throw .empty }
        // Judged as typed and as stored: Linux Foundation's NFC mangles a supplementary-plane
        // scalar followed by a mark ("\u{E0041}\u{301}" becomes "Á"), which would hide a tag
        // character; and the server judges what is stored.
        for text in [trimmed, normalized] {
            var invalid = text.filter { !$0.unicodeScalars.allSatisfy(DisplayName.isAllowed) }
            if invalid.isEmpty, let first = text.unicodeScalars.first, !TextRules.isNameLetter(first) {
                invalid = String(text.prefix(1))
            }
            // A compatibility character (a ligature, a full-width or circled letter) is its plain
            // form to the server, which takes names that are their own NFKC form only.
            if invalid.isEmpty, normalized.precomposedStringWithCompatibilityMapping != normalized {
                invalid = text.filter { String($0).precomposedStringWithCompatibilityMapping != String($0) }
            }
            if !invalid.isEmpty {
                var seen = Set<Character>()
                throw .invalidCharacters(invalid.filter { seen.insert($0).inserted }.map(SafeText.describe))
            }
        }
        let stored = normalized.unicodeScalars
        guard stored.count <= TextRules.nameScalars else { throw .tooManyScalars(stored.count) }
        let letters = stored.count(where: TextRules.isNameLetter)
        guard letters <= DisplayName.maximumLength else { throw .tooLong(letters) }
        value = normalized
    }

    public var description: String { value }

    /// The key that decides uniqueness within a group: names differing only in case clash.
    public var uniquenessKey: String { value.lowercased() }

    /// Spaces around a name typed (trimmed, and not counted).
    private static let spaceAround = 64

    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F
    }

    /// A scalar a name may hold (`TextRules`): a letter, digit or underscore, or a combining
    /// mark after one.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        TextRules.isNameLetter(scalar) || TextRules.isNameMark(scalar)
    }
}

/// Why a display name was refused; `message` says what to type instead.
public enum DisplayNameError: ExplainedError, Hashable, Sendable {
    case empty
    case tooLong(Int)
    /// More scalars in all than `TextRules.nameScalars` (a letter under a pile of marks).
    case tooManyScalars(Int)
    case invalidCharacters([String])

    public var message: String {
        switch self {
        case .empty:
            return "A display name needs at least one letter, digit or underscore."
        case .tooLong(let count):
            return "A display name has at most \(DisplayName.maximumLength) characters; this one has \(count)."
        case .tooManyScalars(let count):
            return
                "A display name has at most \(TextRules.nameScalars) letters and marks in all; this one has \(count)."
        case .invalidCharacters(let names):
            let listed = names.prefix(5).joined(separator: ", ")
            return "A display name may use only letters, digits and underscores; remove \(listed)."
        }
    }
}
