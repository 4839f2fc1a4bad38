import CNcursesw
import ScreenMatesUI

/// Turns what `wget_wch` returns into `KeyInput`.
enum KeyDecoder {
    /// A character (`isFunctionKey == false`) or a special key code.
    static func decode(_ value: UInt32, isFunctionKey: Bool) -> KeyInput? {
        if isFunctionKey {
            switch Int32(value) {
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_NPAGE: return .pageDown
            case KEY_PPAGE: return .pageUp
            case KEY_HOME: return .home
            case KEY_END: return .end
            case KEY_BTAB: return .backTab
            case KEY_ENTER: return .enter
            case KEY_BACKSPACE: return .backspace
            case KEY_DC: return .delete
            case KEY_RESIZE: return .resize
            case KEY_F0 + 1...KEY_F0 + 24: return .function(Int(Int32(value) - KEY_F0))
            default: return nil
            }
        }
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }
}
