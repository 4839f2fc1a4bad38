/// A key press, as the terminal layer decodes it.
public enum KeyInput: Hashable, Sendable {
    case character(Character)
    /// Ctrl plus a letter, e.g. `.control("l")`.
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case tab, backTab
    case enter, escape, backspace, delete
    case function(Int)
    /// The terminal changed size.
    case resize

    /// How the key is written in the footer, the help screen and the config file.
    public var label: String {
        switch self {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .control(let c): "ctrl-\(c)"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .home: "home"
        case .end: "end"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .enter: "enter"
        case .escape: "esc"
        case .backspace: "backspace"
        case .delete: "delete"
        case .function(let n): "F\(n)"
        case .resize: "resize"
        }
    }
}
