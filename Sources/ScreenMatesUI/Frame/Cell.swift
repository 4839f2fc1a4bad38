/// One cell of a frame: the text it shows (a character and its combining marks) and its style.
/// The right half of a wide character is a continuation cell with empty text.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(text: String, style: Style) {
        self.text = text
        self.style = style
    }

    public var isContinuation: Bool { text.isEmpty }
    public static let blank = Cell(text: " ", style: .plain)
}
