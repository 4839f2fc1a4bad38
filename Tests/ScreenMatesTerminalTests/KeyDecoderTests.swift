import Testing

@testable import ScreenMatesTerminal

@Suite struct KeyDecoderTests {
    @Test func plainCharactersAndControlKeysDecode() {
        #expect(KeyDecoder.decode(UInt32(Character("q").asciiValue!), isFunctionKey: false) == .character("q"))
        #expect(KeyDecoder.decode(27, isFunctionKey: false) == .escape)
        #expect(KeyDecoder.decode(9, isFunctionKey: false) == .tab)
        #expect(KeyDecoder.decode(12, isFunctionKey: false) == .control("l"))
    }
}
