import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct GroupCodeTests {
    private static func error(_ raw: String) -> GroupCodeError? {
        do {
            _ = try GroupCode(validating: raw)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Alphabet

    @Test func alphabetHas32DistinctCharactersWithoutLookAlikes() {
        let alphabet = GroupCode.alphabet
        #expect(alphabet.count == 32)
        #expect(Set(alphabet).count == 32)
        for lookAlike: Character in ["0", "O", "1", "I", "o", "i", "l"] {
            #expect(!alphabet.contains(lookAlike), "\(lookAlike)")
        }
        #expect(alphabet.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) })
        #expect(GroupCode.length == 6)
    }

    @Test func codeSpaceIsLargerThanABillion() {
        let codes = (0..<GroupCode.length).reduce(1) { total, _ in total * GroupCode.alphabet.count }
        #expect(codes == 1_073_741_824)
        #expect(codes > 1_000_000_000)
    }

    // MARK: Valid input

    @Test func acceptsAndNormalisesExamples() throws {
        #expect(try GroupCode(validating: "K7M2QX").value == "K7M2QX")
        #expect(try GroupCode(validating: "k7m2qx").value == "K7M2QX")
        #expect(try GroupCode(validating: " k7m-2qx ").value == "K7M2QX")
        #expect(try GroupCode(validating: "K 7 M 2 Q X").value == "K7M2QX")
        #expect(try GroupCode(validating: "K7M\t2QX\n").value == "K7M2QX")
        #expect(try GroupCode(validating: "K7M2QX").description == "K7M2QX")
    }

    @Test func randomCodesAlwaysValidate() async {
        await propertyCheck(count: 200, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var generator = SeededGenerator(seed: seed)
            let code = GroupCode.random(using: &generator)
            #expect(code.value.count == GroupCode.length)
            #expect(code.value.allSatisfy { GroupCode.alphabet.contains($0) })
            let again = try GroupCode(validating: code.value)
            #expect(again == code)
        }
    }

    @Test func randomCodesUseTheWholeAlphabet() {
        var generator = SeededGenerator(seed: 42)
        let seen = Set((0..<500).flatMap { _ in GroupCode.random(using: &generator).value })
        #expect(seen == Set(GroupCode.alphabet))
    }

    private static let codeGen = Gen<Character?>.element(of: GroupCode.alphabet).map { $0! }.string(of: 6)

    @Test func caseSpacesAndDashesDoNotMatter() async {
        let noise = Gen<String?>.element(of: ["", "", " ", "-", "  ", " - ", "\t"]).map { $0! }.array(of: 7)
        let input = zip(Self.codeGen, noise, Gen.bool.array(of: 6))
        await propertyCheck(count: 200, input: input) { code, separators, lowercase in
            var typed = separators[0]
            for (index, character) in code.enumerated() {
                typed += lowercase[index] ? character.lowercased() : String(character)
                typed += separators[index + 1]
            }
            let parsed = try GroupCode(validating: typed)
            #expect(parsed.value == code, "\(typed.debugDescription)")
            #expect(try GroupCode(validating: code.lowercased()) == parsed)
        }
    }

    @Test func codable() throws {
        let code = try GroupCode(validating: "K7M2QX")
        let data = try JSONEncoder().encode([code])
        #expect(try JSONDecoder().decode([GroupCode].self, from: data) == [code])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([GroupCode].self, from: Data(#"["K7M2Q0"]"#.utf8))
        }
    }

    // MARK: Invalid input

    @Test(arguments: ["", "   ", "-", " - - "])
    func rejectsEmpty(_ raw: String) {
        #expect(Self.error(raw) == .empty)
        #expect(Self.error(raw)?.message.contains("6-character") == true)
    }

    @Test(arguments: [("K7M2Q", 5), ("K", 1), ("K7M2QXA", 7), ("K7M-2QX-A2", 8)])
    func rejectsWrongLength(_ raw: String, _ count: Int) {
        let error = Self.error(raw)
        #expect(error == .wrongLength(count))
        #expect(error?.message.contains("6 characters") == true)
        #expect(error?.message.contains("has \(count)") == true)
    }

    @Test func rejectsLookAlikesAndForeignCharacters() {
        #expect(Self.error("K7M2Q0") == .invalidCharacters(["'0'"]))
        #expect(Self.error("K7M2QO") == .invalidCharacters(["'O'"]))
        #expect(Self.error("K7M2Q1") == .invalidCharacters(["'1'"]))
        #expect(Self.error("K7M2QI") == .invalidCharacters(["'I'"]))
        #expect(Self.error("k7m2qo") == .invalidCharacters(["'O'"]))
        #expect(Self.error("K7M!QX") == .invalidCharacters(["'!'"]))
        #expect(Self.error("K7M_QX") == .invalidCharacters(["'_'"]))
        #expect(Self.error("K7MÄQX") == .invalidCharacters(["'Ä'"]))
        #expect(Self.error("K7M2Q\u{1B}") == .invalidCharacters(["U+001B"]))
        #expect(Self.error("OO11") == .invalidCharacters(["'O'", "'1'"]))
        let message = Self.error("K7M2Q0")?.message ?? ""
        #expect(message.contains("'0'"))
        #expect(message.contains("never 0, O, 1 or I"))
    }

    @Test func foreignCharactersAreNotTurnedIntoCodeCharacters() {
        // "ß" upper-cases to "SS" and "ſ" (long s) to "S"; neither is a code character.
        guard case .invalidCharacters = Self.error("K7M2ß") else {
            Issue.record("K7M2ß gave \(String(describing: Self.error("K7M2ß")))")
            return
        }
        guard case .invalidCharacters = Self.error("K7M2Qſ") else {
            Issue.record("K7M2Qſ gave \(String(describing: Self.error("K7M2Qſ")))")
            return
        }
        guard case .invalidCharacters = Self.error("ＫＭＮＰＱＲ") else {
            Issue.record("full-width letters gave \(String(describing: Self.error("ＫＭＮＰＱＲ")))")
            return
        }
    }

    @Test func invalidCharactersWinOverLength() {
        #expect(Self.error("0") == .invalidCharacters(["'0'"]))
        #expect(Self.error("K7M2QXO0") == .invalidCharacters(["'O'", "'0'"]))
    }
}
