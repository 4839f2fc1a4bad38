/// Which scalars a display name and an app id may hold: the one statement of both rules, which
/// every client applies and the PostgreSQL schema applies too. The server's copies of the sets
/// (`name_letters.sql`, `name_marks.sql` and `app_id_scalars.sql` among its functions) are
/// generated from these predicates by `TextRulesAgreementTests`, which also runs every scalar
/// through the client and a real server.
///
/// A scalar counts only if Unicode 14 had assigned it: PostgreSQL 15 normalises with Unicode 14's
/// tables, and a scalar it does not know would be judged differently on the two sides.
public enum TextRules {
    /// The last Unicode version whose scalars the rules take.
    public static let unicodeVersion: Unicode.Version = (major: 14, minor: 0)

    /// The most letters (and digits and underscores) of a display name.
    public static let nameLetters = 20
    /// The most scalars of a display name, marks included: a letter with a few marks each, and
    /// never a name long enough to make normalising it slow.
    public static let nameScalars = 60
    /// The most scalars of an app id a shared rule names.
    public static let appIDScalars = 64

    /// A scalar that may stand in a display name: an underscore, or a letter or digit that takes
    /// a cell on screen (a Hangul filler is a "letter" that shows nothing).
    public static func isNameLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            return isKnown(scalar) && CellWidth.of(scalar) > 0 && isShown(scalar)
        default:
            return false
        }
    }

    /// A combining mark, which may follow a name's letters (an accent that has no precomposed
    /// form, the vowel signs of the Indic scripts).
    public static func isNameMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark: return isKnown(scalar) && isShown(scalar)
        default: return false
        }
    }

    /// A scalar an app id may hold: anything shown as it is (no control, line break, format or
    /// variation selector, private use or unassigned scalar).
    public static func isAppIDScalar(_ scalar: Unicode.Scalar) -> Bool {
        isKnown(scalar) && isShown(scalar) && scalar.properties.generalCategory != .privateUse
    }

    /// Whether `text` is an app id: 1 to `appIDScalars` scalars, each one `isAppIDScalar`.
    public static func isAppID(_ text: String) -> Bool {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= appIDScalars, isAppIDScalar(scalar) else { return false }
        }
        return count > 0
    }

    private static func isKnown(_ scalar: Unicode.Scalar) -> Bool {
        guard let age = scalar.properties.age else { return false }
        return (age.major, age.minor) <= (unicodeVersion.major, unicodeVersion.minor)
    }

    private static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        !SafeText.hasUnsafeCharacters(String(scalar))
    }
}
