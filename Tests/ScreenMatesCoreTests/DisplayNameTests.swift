import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct DisplayNameTests {
    private static func error(_ raw: String) -> DisplayNameError? {
        do {
            _ = try DisplayName(validating: raw)
            return nil
        } catch {
            return error
        }
    }

    private static func invalidNames(_ raw: String) -> [String]? {
        if case .invalidCharacters(let names) = error(raw) { return names }
        return nil
    }

    // MARK: Accepted

    @Test(arguments: [
        "ana", "Bo_2", "名前", "José", "_", "9", "ZOË", "Ørjan", "Δήμητρα", "Ёлка", "محمد", "김민수", "aaaaaaaaaaaaaaaaaaaa",
        "名前名前名前名前名前名前名前名前名前名前", "__init__", "user_01",
    ])
    func acceptsLettersDigitsAndUnderscores(_ raw: String) throws {
        let name = try DisplayName(validating: raw)
        #expect(name.value == raw.precomposedStringWithCanonicalMapping)
        #expect(name.description == name.value)
    }

    @Test func storesNFC() throws {
        let decomposed = "Jose\u{301}"
        let name = try DisplayName(validating: decomposed)
        #expect(name.value == "Jos\u{E9}")
        #expect(name.value.unicodeScalars.count == 4)
        #expect(try DisplayName(validating: "Jos\u{E9}") == name)
        // Twenty decomposed characters are twenty characters.
        #expect(try DisplayName(validating: String(repeating: "e\u{301}", count: 20)).value.count == 20)
    }

    @Test func trimsSurroundingSpaces() throws {
        #expect(try DisplayName(validating: "  ana ").value == "ana")
    }

    @Test func uniquenessIgnoresCase() throws {
        #expect(try DisplayName(validating: "Ana").uniquenessKey == DisplayName(validating: "aNA").uniquenessKey)
        #expect(try DisplayName(validating: "Ana").uniquenessKey != DisplayName(validating: "Anna").uniquenessKey)
    }

    @Test func codable() throws {
        let name = try DisplayName(validating: "Bo_2")
        let data = try JSONEncoder().encode([name])
        #expect(String(decoding: data, as: UTF8.self) == #"["Bo_2"]"#)
        #expect(try JSONDecoder().decode([DisplayName].self, from: data) == [name])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([DisplayName].self, from: Data(#"["a b"]"#.utf8))
        }
    }

    // MARK: Rejected

    @Test(arguments: ["", " ", "    ", "\t", " \t "])
    func rejectsEmpty(_ raw: String) {
        #expect(Self.error(raw) == .empty)
        #expect(Self.error(raw)?.message.contains("at least one") == true)
    }

    @Test func rejectsTwentyOneCharacters() {
        let error = Self.error(String(repeating: "a", count: 21))
        #expect(error == .tooLong(21))
        #expect(error?.message.contains("20") == true)
        #expect(error?.message.contains("21") == true)
        #expect(Self.error(String(repeating: "名", count: 21)) == .tooLong(21))
        #expect(Self.error(String(repeating: "e\u{301}", count: 21)) == .tooLong(21))
    }

    @Test func rejectsASpaceInside() {
        let error = Self.error("ana bo")
        #expect(error == .invalidCharacters(["space"]))
        #expect(error?.message.contains("space") == true)
        #expect(error?.message.contains("letters, digits and underscores") == true)
    }

    @Test(arguments: ["ana!", "a.b", "a-b", "a@b", "(ana)", "a/b", "a'b", "a\"b", "a,b", "a+b", "½"])
    func rejectsPunctuationAndSymbols(_ raw: String) {
        #expect(Self.invalidNames(raw) != nil)
    }

    @Test func namesTheOffendingCharacterOnce() {
        #expect(Self.error("a!b!c?") == .invalidCharacters(["'!'", "'?'"]))
        #expect(Self.error("a!b!c?")?.message.contains("'!', '?'") == true)
    }

    @Test(arguments: ["ana😀", "😀", "👍🏽", "❤️", "👨‍👩‍👧", "a✨b"])
    func rejectsEmoji(_ raw: String) {
        #expect(Self.invalidNames(raw) != nil)
    }

    @Test(arguments: [
        ("an\u{0}a", "U+0000"), ("an\u{7}a", "U+0007"), ("an\u{9}a", "U+0009"), ("an\na", "U+000A"),
        ("an\u{1B}a", "U+001B"), ("\u{1B}[31mred", "U+001B"), ("an\u{7F}a", "U+007F"), ("an\u{9B}a", "U+009B"),
        ("an\u{85}a", "U+0085"), ("an\u{202E}a", "U+202E"), ("an\u{2066}a", "U+2066"), ("an\u{200B}a", "U+200B"),
        ("an\u{200D}a", "U+200D"), ("an\u{FEFF}a", "U+FEFF"), ("\u{FEFF}ana", "U+FEFF"), ("ana\u{200E}", "U+200E"),
        ("\u{200B}ana", "U+200B"), ("ana\u{200B}", "U+200B"), ("ae\u{E0041}\u{301}", "U+E0041"),
        ("an\u{2060}a", "U+2060"), ("an\u{AD}a", "U+00AD"), ("an\u{2028}a", "U+2028"), ("ana\u{FE0F}", "U+FE0F"),
        ("a\u{E0100}na", "U+E0100"),
    ])
    func rejectsInvisibleAndControlCharacters(_ raw: String, _ named: String) {
        let error = Self.error(raw)
        #expect(Self.invalidNames(raw) != nil, "\(raw.debugDescription) → \(String(describing: error))")
        // The message names the character by code point, never by printing it raw.
        let message = error?.message ?? ""
        #expect(message.contains(named), "\(message)")
        #expect(!SafeText.hasUnsafeCharacters(message), "\(message.debugDescription)")
    }

    @Test func rejectsNamesThatWouldBeInvisible() {
        // Hangul jungseong filler: a "letter" that takes no cell at all.
        #expect(Self.invalidNames("\u{1160}") != nil)
        #expect(Self.invalidNames("ab\u{1160}") != nil)
    }

    @Test func rejectsEnclosingMarks() {
        // A combining enclosing circle is a mark, but not one that belongs in a name.
        #expect(Self.invalidNames("a\u{20DD}") != nil)
    }

    @Test func acceptsACombiningMarkWithoutAPrecomposedForm() throws {
        // q + combining dot below has no precomposed form: one character, kept decomposed.
        let name = try DisplayName(validating: "q\u{323}a")
        #expect(name.value.count == 2)
    }

    // MARK: Properties

    /// Letters (some decomposed, some outside Latin), digits and underscores.
    private static let validPieces = [
        "a", "b", "z", "A", "Q", "Z", "0", "7", "9", "_", "é", "e\u{301}", "A\u{30A}", "ß", "ñ", "Ж", "ж", "λ", "名",
        "前", "한", "\u{1112}\u{1161}\u{11AB}", "ا", "٣", "ー",
    ]

    private static let validNameGen = Gen<String?>.element(of: validPieces).map { $0! }.array(of: 1...20)
        .map { $0.joined() }

    @Test func generatedValidNamesAreAcceptedInNFC() async {
        await propertyCheck(count: 200, input: Self.validNameGen) { raw in
            let name = try DisplayName(validating: raw)
            #expect(name.value == raw.precomposedStringWithCanonicalMapping)
            #expect(name.value.count == raw.count)
            #expect(!SafeText.hasUnsafeCharacters(name.value))
            // Validating the stored value again gives the same name.
            #expect(try DisplayName(validating: name.value) == name)
        }
    }

    /// Characters no name may hold. (Tabs and other spaces are left out: at either end they are
    /// trimmed, which is fine.)
    private static let unsafe = [
        "\u{0}", "\u{7}", "\n", "\r", "\u{1B}", "\u{1B}[31m", "\u{1B}]0;x\u{7}", "\u{7F}", "\u{80}", "\u{85}",
        "\u{9B}", "\u{9F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}",
        "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{61C}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}",
        "\u{FEFF}", "\u{AD}", "\u{E0041}", "\u{2028}", "\u{2029}", "!", "😀", "\u{FE0F}", "-", ".",
    ]

    @Test func insertingAnUnsafeCharacterAnywhereIsRejected() async {
        let input = zip(Self.validNameGen, Gen<String?>.element(of: Self.unsafe).map { $0! }, Gen.int(in: 0...100))
        await propertyCheck(count: 200, input: input) { raw, bad, position in
            var scalars = Array(raw.unicodeScalars)
            let index = position % (scalars.count + 1)
            scalars.insert(contentsOf: bad.unicodeScalars, at: index)
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let tainted = String(text)
            let error = Self.error(tainted)
            guard case .invalidCharacters(let names) = error else {
                Issue.record("\(tainted.debugDescription) gave \(String(describing: error))")
                return
            }
            #expect(!names.isEmpty)
            #expect(!SafeText.hasUnsafeCharacters(error?.message ?? ""))
        }
    }
}
