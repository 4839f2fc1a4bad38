/// Makes untrusted text (other members' names, codes, config values) safe to put on a
/// terminal, and measures it in cells.
///
/// Control characters (C0, DEL, C1) become U+FFFD so they are visible but inert: they can never
/// start an escape sequence. Bidi overrides, zero-width and other invisible format characters
/// are removed, so nothing reorders or hides text. Variation selectors are removed too, because
/// terminals disagree on the width they give an emoji with one. Line breaks become spaces.
public enum SafeText {
    public static let replacement: Unicode.Scalar = "\u{FFFD}"
    static let maximumMarksPerCell = 3

    /// The display-safe form of `raw`.
    public static func displayable(_ raw: String) -> String {
        var out = String.UnicodeScalarView()
        var previousPrinted = false
        var marks = 0
        for scalar in raw.unicodeScalars {
            switch classify(scalar) {
            case .printable(let width):
                if width == 0 {
                    guard previousPrinted, marks < maximumMarksPerCell else { continue }
                    marks += 1
                } else {
                    previousPrinted = true
                    marks = 0
                }
                out.append(scalar)
            case .invisible:
                continue
            case .lineBreak:
                out.append(" ")
                previousPrinted = true
                marks = 0
            case .control:
                out.append(replacement)
                previousPrinted = true
                marks = 0
            }
        }
        return String(out)
    }

    /// Whether `raw` holds anything `displayable` would change: controls, bidi or zero-width
    /// characters. Input validation rejects such text instead of silently repairing it.
    public static func hasUnsafeCharacters(_ raw: String) -> Bool {
        raw.unicodeScalars.contains { scalar in
            switch classify(scalar) {
            case .printable: false
            case .invisible, .lineBreak, .control: true
            }
        }
    }

    /// Display-safe text cut to at most `cells` cells. A wide character that would straddle the
    /// edge is left out (never split), and `ellipsis` marks a cut.
    public static func truncated(_ raw: String, toCells cells: Int, ellipsis: String = "…") -> String {
        let safe = displayable(raw)
        guard cells > 0 else { return "" }
        if CellWidth.of(safe) <= cells { return safe }
        let ellipsisWidth = CellWidth.of(ellipsis)
        let budget = max(0, cells - ellipsisWidth)
        var result = ""
        var used = 0
        for cell in TextCell.split(safe) {
            if used + cell.width > budget { break }
            result += cell.text
            used += cell.width
        }
        return ellipsisWidth <= cells ? result + ellipsis : result
    }

    /// Display-safe text padded with spaces (or cut) to exactly `cells` cells.
    public static func padded(_ raw: String, toCells cells: Int, alignRight: Bool = false) -> String {
        let cut = truncated(raw, toCells: cells)
        let fill = String(repeating: " ", count: max(0, cells - CellWidth.of(cut)))
        return alignRight ? fill + cut : cut + fill
    }

    /// A visible name for a character in an error message: `U+202E` for invisible ones.
    public static func describe(_ character: Character) -> String {
        if character == " " { return "space" }
        if hasUnsafeCharacters(String(character)) || CellWidth.of(String(character)) == 0 {
            return character.unicodeScalars.map {
                "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4)
            }
            .joined(separator: " ")
        }
        return "'\(character)'"
    }

    private enum Kind {
        case printable(width: Int)
        case invisible
        case lineBreak
        case control
    }

    private static func classify(_ scalar: Unicode.Scalar) -> Kind {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return .printable(width: 1) }
        if value == 0x0A || value == 0x0D || value == 0x2028 || value == 0x2029 { return .lineBreak }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return .control }
        // Format characters: bidi embeddings, overrides and isolates, zero-width space and
        // joiners, word joiner, BOM, soft hyphen, tags.
        if scalar.properties.generalCategory == .format { return .invisible }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return .invisible }
        let width = CellWidth.of(scalar)
        if width < 0 { return .control }
        return .printable(width: width)
    }
}
