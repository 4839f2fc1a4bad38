import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct UserIDTests {
    private static func error(_ raw: String) -> UserIDError? {
        do {
            _ = try UserID(validating: raw)
            return nil
        } catch {
            return error
        }
    }

    // MARK: New ids

    @Test func randomIdsAlwaysValidate() async {
        await propertyCheck(count: 200, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var generator = SeededGenerator(seed: seed)
            let id = UserID.random(using: &generator)
            #expect(id.value.count == UserID.generatedLength)
            #expect(id.value.allSatisfy { UserID.generatedAlphabet.contains($0) })
            let again = try UserID(validating: id.value)
            #expect(again == id)
            #expect(id.description == id.value)
        }
    }

    /// The ids made before the type existed: 8 characters drawn one by one from the same
    /// alphabet, so a seeded generator makes the same id as it always did.
    @Test func randomIdsAreTheOnesTheAppAlwaysMade() async {
        await propertyCheck(count: 100, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var generator = SeededGenerator(seed: seed)
            var before = SeededGenerator(seed: seed)
            let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
            let old = String((0..<8).map { _ in alphabet.randomElement(using: &before)! })
            #expect(UserID.random(using: &generator).value == old)
        }
    }

    @Test func randomIdsUseTheWholeAlphabetWithoutLookAlikes() {
        var generator = SeededGenerator(seed: 42)
        let seen = Set((0..<500).flatMap { _ in UserID.random(using: &generator).value })
        #expect(seen == Set(UserID.generatedAlphabet))
        #expect(UserID.generatedAlphabet.count == 32)
        for lookAlike: Character in ["l", "o", "0", "1", "I", "O"] {
            #expect(!seen.contains(lookAlike), "\(lookAlike)")
        }
    }

    // MARK: Accepted

    /// What group stores have always taken: ids of simulated members and other programs too.
    @Test(arguments: [
        "abcd2345", "u1", "a", "B", "ME000001", "m0000000", "c0m1", "guesser-3", "user_01", "-", "_",
        String(repeating: "z", count: 64),
    ])
    func acceptsPlainIdsUpTo64Characters(_ raw: String) throws {
        let id = try UserID(validating: raw)
        #expect(id.value == raw)
        #expect(id.description == raw)
    }

    @Test func ordersAsItsText() throws {
        let texts = ["b", "a2", "A", "a10", "_x", "-y", "zz"]
        let ids = try texts.map { try UserID(validating: $0) }
        #expect(ids.sorted().map(\.value) == texts.sorted())
    }

    // MARK: JSON

    @Test func encodesAsThePlainString() throws {
        let id = try UserID(validating: "abcd2345")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"["abcd2345"]"#)
        #expect(try JSONDecoder().decode([UserID].self, from: data) == [id])
    }

    private static let plainCharacters = Array(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")

    @Test func anyValidIdRoundTripsThroughJSON() async {
        let gen = Gen<Character?>.element(of: Self.plainCharacters).map { $0! }.string(of: 1...64)
        await propertyCheck(count: 200, input: gen) { raw in
            let id = try UserID(validating: raw)
            let data = try JSONEncoder().encode(id)
            #expect(data == (try JSONEncoder().encode(raw)))
            #expect(try JSONDecoder().decode(UserID.self, from: data) == id)
        }
    }

    /// A dictionary keyed by user ids (the group snapshot's sums) is the object one keyed by
    /// strings was, so caches written before read back the same.
    @Test func dictionaryKeyedByIdsIsAnObject() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let byID = [try UserID(validating: "bo234567"): 3, try UserID(validating: "ana23456"): 5]
        let byText = ["bo234567": 3, "ana23456": 5]
        let data = try encoder.encode(byID)
        #expect(data == (try encoder.encode(byText)))
        #expect(String(decoding: data, as: UTF8.self) == #"{"ana23456":5,"bo234567":3}"#)
        #expect(try JSONDecoder().decode([UserID: Int].self, from: data) == byID)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([UserID: Int].self, from: Data(#"{"a b":1}"#.utf8))
        }
    }

    @Test(arguments: [
        #"[""]"#, #"["ab cd"]"#, #"["abc\u001b"]"#, #"["ab\u00e9"]"#, "[\"\(String(repeating: "a", count: 65))\"]",
    ])
    func decodingABadIdIsDataCorrupted(_ json: String) {
        do {
            _ = try JSONDecoder().decode([UserID].self, from: Data(json.utf8))
            Issue.record("\(json) was decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("A user id"), "\(context.debugDescription)")
        } catch {
            Issue.record("\(json) gave \(error)")
        }
    }

    // MARK: Refused

    @Test func rejectsWrongLength() {
        #expect(Self.error("") == .wrongLength(0))
        #expect(Self.error(String(repeating: "a", count: 65)) == .wrongLength(65))
        #expect(Self.error(String(repeating: "a", count: 200)) == .wrongLength(200))
        let message = Self.error("")?.message ?? ""
        #expect(message.contains("1 to 64 characters"))
        #expect(message.contains("has 0"))
    }

    @Test func rejectsCharactersOtherThanPlainASCII() {
        #expect(Self.error("ab cd") == .invalidCharacters(["space"]))
        #expect(Self.error("abc!") == .invalidCharacters(["'!'"]))
        #expect(Self.error("a.b/c") == .invalidCharacters(["'.'", "'/'"]))
        #expect(Self.error("abcé") == .invalidCharacters(["'é'"]))
        #expect(Self.error("ab'c") == .invalidCharacters(["'''"]))
        #expect(Self.error("ＡＢＣ") == .invalidCharacters(["'Ａ'", "'Ｂ'", "'Ｃ'"]))
        #expect(Self.error("abc1٣") == .invalidCharacters(["'٣'"]))
        let message = Self.error("abc!")?.message ?? ""
        #expect(message.contains("letters A-Z and a-z, digits, '-' and '_'"))
        #expect(message.contains("'!'"))
    }

    @Test func rejectsControlAndInvisibleCharacters() {
        #expect(Self.error("abc\u{1B}") == .invalidCharacters(["U+001B"]))
        #expect(Self.error("abc\u{0}") == .invalidCharacters(["U+0000"]))
        #expect(Self.error("abc\n") == .invalidCharacters(["U+000A"]))
        #expect(Self.error("ab\tc") == .invalidCharacters(["U+0009"]))
        #expect(Self.error("abc\u{7F}") == .invalidCharacters(["U+007F"]))
        #expect(Self.error("a\u{202E}bc") == .invalidCharacters(["U+202E"]))
        #expect(Self.error("ab\u{200B}c") == .invalidCharacters(["U+200B"]))
        #expect(Self.error("abc\u{1B}")?.message.contains("U+001B") == true)
    }

    @Test func invalidCharactersWinOverLength() {
        #expect(Self.error(" ") == .invalidCharacters(["space"]))
        #expect(Self.error(String(repeating: "!", count: 70)) == .invalidCharacters(["'!'"]))
    }

    @Test func aLongListNamesFiveCharacters() {
        let message = Self.error("!@#$%^&*")?.message ?? ""
        #expect(message.hasSuffix("remove '!', '@', '#', '$', '%'."), "\(message)")
    }
}
