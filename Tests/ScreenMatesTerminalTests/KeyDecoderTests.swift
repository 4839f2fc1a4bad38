import CNcursesw
import ScreenMatesUI
import Testing

@testable import ScreenMatesTerminal

/// What `wget_wch` returns, turned into keys: every special key code the decoder maps, the
/// characters with a meaning of their own, and what it leaves out.
@Suite struct KeyDecoderTests {
    private func character(_ value: UInt32) -> KeyInput? { KeyDecoder.decode(value, isFunctionKey: false) }
    private func special(_ code: Int32) -> KeyInput? { KeyDecoder.decode(UInt32(code), isFunctionKey: true) }

    @Test func plainCharactersAndControlKeysDecode() {
        #expect(character(UInt32(Character("q").asciiValue!)) == .character("q"))
        #expect(character(27) == .escape)
        #expect(character(9) == .tab)
        #expect(character(12) == .control("l"))
    }

    @Test(arguments: [
        (KEY_UP, KeyInput.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right), (KEY_NPAGE, .pageDown),
        (KEY_PPAGE, .pageUp), (KEY_HOME, .home), (KEY_END, .end), (KEY_BTAB, .backTab), (KEY_ENTER, .enter),
        (KEY_BACKSPACE, .backspace), (KEY_DC, .delete), (KEY_RESIZE, .resize),
    ])
    func specialKeyCodes(code: Int32, key: KeyInput) {
        #expect(special(code) == key)
    }

    @Test func functionKeysF1ToF12() {
        for number in 1...12 {
            #expect(special(KEY_F0 + Int32(number)) == .function(number), "F\(number)")
        }
    }

    @Test func unknownFunctionKeysAreLeftOut() {
        // F0 is not a key; insert, mouse and the keypad's centre are not bound to anything.
        for code in [KEY_F0, KEY_IC, KEY_MOUSE, KEY_B2, KEY_F0 + 25] {
            #expect(special(code) == nil, "key code \(code)")
        }
    }

    @Test func aSpecialKeyCodeIsNotReadAsTheCharacterWithTheSameNumber() {
        // KEY_DOWN is 258, which as a character would be "Ă".
        #expect(character(UInt32(KEY_DOWN)) == .character("Ă"))
        #expect(special(KEY_DOWN) == .down)
    }

    @Test func backspaceAndEnterHaveTwoCodesEach() {
        #expect(character(8) == .backspace)
        #expect(character(127) == .backspace)
        #expect(character(10) == .enter)
        #expect(character(13) == .enter)
    }

    @Test func ctrlLettersAreControlKeys() {
        // 8, 9, 10 and 13 are backspace, tab and enter (ctrl-h, ctrl-i, ctrl-j and ctrl-m).
        let own: [UInt32: KeyInput] = [8: .backspace, 9: .tab, 10: .enter, 13: .enter]
        for value in UInt32(1)...26 {
            let letter = Character(Unicode.Scalar(UInt8(96 + value)))
            #expect(character(value) == own[value] ?? .control(letter), "code \(value)")
        }
        #expect(character(1) == .control("a"))
        #expect(character(21) == .control("u"))
        #expect(character(26) == .control("z"))
    }

    @Test func nonASCIICharactersArriveWhole() {
        #expect(character(0xE9) == .character("é"))
        #expect(character(0x540D) == .character("名"))
        #expect(character(0x1F389) == .character("🎉"))
        #expect(character(32) == .character(" "))
    }

    @Test func aValueThatIsNoCharacterIsLeftOut() {
        #expect(character(0xD800) == nil)  // a lone surrogate
        #expect(character(0x11_0000) == nil)  // past the last code point
    }
}
