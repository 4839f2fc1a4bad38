import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct SafeTextTests {
    private static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    private static let bidiControls: Set<UInt32> = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]
    private static let zeroWidthFormat: Set<UInt32> = [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD]

    /// Whether a scalar must never reach the terminal.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || bidiControls.contains(value)
            || zeroWidthFormat.contains(value) || scalar.properties.generalCategory == .format
            || (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) || value == 0x2028
            || value == 0x2029
    }

    // MARK: Generators

    private static let safePieces = [
        "a", "Z", "0", " ", "~", "[", "hello", "x y", "漢", "字", "中文", "ｶ", "한", "😀", "👍", "e\u{301}", "x\u{308}",
        "é", "Ж",
    ]

    private static let dangerousPieces = [
        "\u{0}", "\u{7}", "\u{8}", "\t", "\n", "\r\n", "\u{1B}", "\u{1B}[31m", "\u{1B}[2J", "\u{1B}]0;pwned\u{7}",
        "\u{1B}P", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}31m", "\u{9D}", "\u{9F}", "\u{202A}", "\u{202B}", "\u{202C}",
        "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{61C}",
        "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{AD}", "\u{E0041}", "\u{FE0F}", "\u{FE0E}",
        "\u{E0100}", "\u{2028}", "\u{2029}", "\u{378}", "\u{E000}", "\u{FFFF}", "\u{1160}",
    ]

    private static let otherPieces = [
        "❤️", "👍🏽", "👨‍👩‍👧", "🇫🇷", "\u{301}", "\u{308}", "\u{20DD}", "\u{E49}", "\u{301}\u{301}\u{301}\u{301}\u{301}",
        "\u{3099}", "…",
    ]

    private static let mixedGen = Gen<String?>.element(of: safePieces + safePieces + dangerousPieces + otherPieces)
        .map { $0! }.array(of: 0...20).map { $0.joined() }

    private static let safeGen = Gen<String?>.element(of: safePieces).map { $0! }.array(of: 0...20)
        .map { $0.joined() }

    // MARK: displayable

    @Test func displayableRemovesEverythingDangerous() async {
        await propertyCheck(count: 200, input: Self.mixedGen) { raw in
            let safe = SafeText.displayable(raw)
            let bad = safe.unicodeScalars.filter(Self.isForbidden)
            #expect(bad.isEmpty, "\(raw.debugDescription) → \(safe.debugDescription)")
            #expect(!SafeText.hasUnsafeCharacters(safe), "\(raw.debugDescription) → \(safe.debugDescription)")
            // Idempotent, scalar for scalar.
            #expect(Self.scalars(SafeText.displayable(safe)) == Self.scalars(safe))
            // Anything flagged as unsafe is changed.
            if SafeText.hasUnsafeCharacters(raw) { #expect(Self.scalars(safe) != Self.scalars(raw)) }
            // Visible ASCII survives, in order (escape sequences are shown, inert, not hidden).
            let visible: (Unicode.Scalar) -> Bool = { (0x21...0x7E).contains($0.value) }
            #expect(safe.unicodeScalars.filter(visible) == raw.unicodeScalars.filter(visible))
            // The cells add up to the width.
            #expect(TextCell.split(safe).reduce(0) { $0 + $1.width } == CellWidth.of(safe))
        }
    }

    @Test func displayableLeavesSafeTextAlone() async {
        await propertyCheck(count: 200, input: Self.safeGen) { raw in
            #expect(!SafeText.hasUnsafeCharacters(raw))
            #expect(Self.scalars(SafeText.displayable(raw)) == Self.scalars(raw))
        }
    }

    @Test func displayableExamples() {
        #expect(SafeText.displayable("\u{1B}[31mred") == "\u{FFFD}[31mred")
        #expect(SafeText.displayable("a\u{202E}b") == "ab")
        #expect(SafeText.displayable("a\u{200B}b\u{FEFF}") == "ab")
        #expect(SafeText.displayable("a\nb\r\nc") == "a b  c")
        #expect(SafeText.displayable("a\u{7F}\u{9B}") == "a\u{FFFD}\u{FFFD}")
        #expect(SafeText.displayable("tab\there") == "tab\u{FFFD}here")
        #expect(Self.scalars(SafeText.displayable("❤\u{FE0F}")) == [0x2764])
        // A mark with nothing under it is dropped; stacked marks are capped at three.
        #expect(Self.scalars(SafeText.displayable("\u{301}a")) == [0x61])
        #expect(
            Self.scalars(SafeText.displayable("a" + String(repeating: "\u{301}", count: 5))) == [
                0x61, 0x301, 0x301, 0x301,
            ])
        #expect(Self.scalars(SafeText.displayable("名前")) == Self.scalars("名前"))
        #expect(SafeText.displayable("") == "")
    }

    @Test func hasUnsafeCharactersExamples() {
        #expect(!SafeText.hasUnsafeCharacters("ana"))
        #expect(!SafeText.hasUnsafeCharacters("漢字 😀 e\u{301}"))
        #expect(SafeText.hasUnsafeCharacters("a\u{200B}"))
        #expect(SafeText.hasUnsafeCharacters("\u{1B}[31m"))
        #expect(SafeText.hasUnsafeCharacters("a\nb"))
        #expect(SafeText.hasUnsafeCharacters("\u{202E}"))
        #expect(SafeText.hasUnsafeCharacters("\u{9B}"))
        #expect(SafeText.hasUnsafeCharacters("\u{7F}"))
    }

    @Test func describeExamples() {
        #expect(SafeText.describe(" ") == "space")
        #expect(SafeText.describe("a") == "'a'")
        #expect(SafeText.describe("漢") == "'漢'")
        #expect(SafeText.describe("\u{202E}") == "U+202E")
        #expect(SafeText.describe("\u{1B}") == "U+001B")
        #expect(SafeText.describe("\u{301}") == "U+0301")
        #expect(SafeText.describe("a\u{200D}") == "U+0061 U+200D")
    }

    // MARK: Widths and cells

    @Test(arguments: [
        ("漢字", 4), ("😀", 2), ("e\u{301}", 1), ("abc", 3), ("", 0), ("ｶ", 1), ("a漢b", 4), ("\u{FFFD}", 1),
        ("…", 1), ("\u{200B}", 0),
    ])
    func cellWidths(_ text: String, _ width: Int) {
        #expect(CellWidth.of(text) == width)
    }

    @Test func scalarWidths() {
        #expect(CellWidth.of("a" as Unicode.Scalar) == 1)
        #expect(CellWidth.of("漢" as Unicode.Scalar) == 2)
        #expect(CellWidth.of("\u{301}" as Unicode.Scalar) == 0)
        #expect(CellWidth.of("\u{378}" as Unicode.Scalar) == -1)
    }

    @Test func splitKeepsCombiningMarksWithTheirBase() {
        #expect(
            TextCell.split("e\u{301}x漢")
                == [TextCell(text: "e\u{301}", width: 1), TextCell(text: "x", width: 1), TextCell(text: "漢", width: 2)])
        let cells = TextCell.split("a\u{301}\u{308}b")
        #expect(cells.count == 2)
        #expect(Self.scalars(cells[0].text) == [0x61, 0x301, 0x308])
        #expect(TextCell.split("\u{301}a") == [TextCell(text: "a", width: 1)])
        #expect(TextCell.split("").isEmpty)
    }

    // MARK: truncated and padded

    @Test func truncatedExamples() {
        #expect(SafeText.truncated("abcdef", toCells: 3) == "ab…")
        #expect(SafeText.truncated("abc", toCells: 3) == "abc")
        #expect(SafeText.truncated("abc", toCells: 0) == "")
        #expect(SafeText.truncated("abc", toCells: -2) == "")
        #expect(SafeText.truncated("漢字漢字", toCells: 5) == "漢字…")
        // The second 漢 would straddle the edge: it is left out, never split.
        #expect(SafeText.truncated("漢字漢字", toCells: 4) == "漢…")
        #expect(SafeText.truncated("漢字", toCells: 1) == "…")
        #expect(SafeText.truncated("abcdef", toCells: 4, ellipsis: "...") == "a...")
        #expect(SafeText.truncated("abcdef", toCells: 2, ellipsis: "...") == "")
        #expect(SafeText.truncated("\u{1B}[31mred", toCells: 20) == "\u{FFFD}[31mred")
    }

    @Test func paddedExamples() {
        #expect(SafeText.padded("ab", toCells: 5) == "ab   ")
        #expect(SafeText.padded("ab", toCells: 5, alignRight: true) == "   ab")
        #expect(SafeText.padded("漢字漢字", toCells: 4) == "漢… ")
        #expect(SafeText.padded("abcdef", toCells: 4) == "abc…")
        #expect(SafeText.padded("ab", toCells: 0) == "")
    }

    @Test func truncatedFitsAndNeverSplitsACell() async {
        let ellipses = ["…", "...", "»"]
        await propertyCheck(count: 200, input: Self.mixedGen, Gen.int(in: 0...2)) { raw, choice in
            let ellipsis = ellipses[choice]
            let safe = SafeText.displayable(raw)
            let cells = TextCell.split(safe)
            for n in 0...30 {
                let cut = SafeText.truncated(raw, toCells: n, ellipsis: ellipsis)
                let width = CellWidth.of(cut)
                #expect(width <= n, "\(raw.debugDescription) at \(n): \(cut.debugDescription)")
                #expect(!SafeText.hasUnsafeCharacters(cut))
                if CellWidth.of(safe) <= n {
                    #expect(Self.scalars(cut) == Self.scalars(safe))
                    continue
                }
                // Cut: whole cells from the start, then the ellipsis if it fits.
                var body = cut.unicodeScalars[...]
                if CellWidth.of(ellipsis) <= n {
                    let marker = Self.scalars(ellipsis)
                    #expect(Array(Self.scalars(cut).suffix(marker.count)) == marker)
                    body = body.dropLast(marker.count)
                    // Nothing is cut short by more than one cell (a wide character at the edge).
                    #expect(width >= n - 1)
                } else {
                    #expect(cut.isEmpty)
                }
                let kept = TextCell.split(String(body))
                #expect(kept == Array(cells.prefix(kept.count)), "\(raw.debugDescription) at \(n)")
                // Every kept cell is whole, so the last one is never half of a wide character.
                #expect(Self.scalars(kept.map(\.text).joined()) == Array(body.map(\.value)))
            }
        }
    }

    @Test func paddedIsExactlyTheWidth() async {
        await propertyCheck(count: 200, input: Self.mixedGen, Gen.bool) { raw, alignRight in
            for n in 0...30 {
                let padded = SafeText.padded(raw, toCells: n, alignRight: alignRight)
                #expect(CellWidth.of(padded) == n, "\(raw.debugDescription) at \(n): \(padded.debugDescription)")
                #expect(!SafeText.hasUnsafeCharacters(padded))
                let cut = Self.scalars(SafeText.truncated(raw, toCells: n))
                let all = Self.scalars(padded)
                let fill = all.count - cut.count
                #expect(fill >= 0)
                if alignRight {
                    #expect(Array(all.suffix(cut.count)) == cut)
                    #expect(all.prefix(fill).allSatisfy { $0 == 0x20 })
                } else {
                    #expect(Array(all.prefix(cut.count)) == cut)
                    #expect(all.suffix(fill).allSatisfy { $0 == 0x20 })
                }
            }
        }
    }
}
