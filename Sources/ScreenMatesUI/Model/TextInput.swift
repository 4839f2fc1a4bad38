/// A one-line text field: typing appends, backspace removes the last character, ctrl-u clears.
public struct TextInput: Hashable, Sendable {
    public private(set) var text: String
    public let maximumLength: Int

    public init(text: String = "", maximumLength: Int = 40) {
        self.text = String(text.prefix(maximumLength))
        self.maximumLength = maximumLength
    }

    /// Applies an editing key; returns false for keys that are not editing.
    public mutating func handle(_ key: KeyInput) -> Bool {
        switch key {
        case .character(let c):
            if text.count < maximumLength { text.append(c) }
            return true
        case .backspace, .delete:
            if !text.isEmpty { text.removeLast() }
            return true
        case .control("u"):
            text = ""
            return true
        default:
            return false
        }
    }
}
