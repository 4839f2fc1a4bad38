/// The characters used for lines, bars and marks: Unicode where the locale is UTF-8, plain
/// ASCII where it is not (where box drawing would come out as `lqqk`).
public struct Glyphs: Hashable, Sendable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    /// Full bar cell, then the partial fills from 1/8 to 7/8.
    public var barFull: String
    public var barPartials: [String]
    public var barEmpty: String
    public var ellipsis: String
    public var bullet: String
    public var separator: String
    public var arrowUp: String
    public var arrowDown: String
    public var arrowLeft: String
    public var arrowRight: String
    /// Marks the highlighted row of a list, so it shows without colour or reverse video too.
    public var pointer: String
    public var cursor: String
    public var check: String
    public var cross: String
    /// The multiplication sign, as in `80×24` and `×60`.
    public var times: String
    /// When true, every non-ASCII character of text is shown as `?` (one per cell).
    public var asciiOnly: Bool

    public static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        barFull: "█", barPartials: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"], barEmpty: "░", ellipsis: "…",
        bullet: "·", separator: "│", arrowUp: "↑", arrowDown: "↓", arrowLeft: "←",
        arrowRight: "→", pointer: "›", cursor: "▏", check: "✓", cross: "✗",
        times: "×", asciiOnly: false)

    public static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        barFull: "#", barPartials: [], barEmpty: ".", ellipsis: "~", bullet: "-", separator: "|", arrowUp: "^",
        arrowDown: "v", arrowLeft: "<", arrowRight: ">", pointer: ">", cursor: "_", check: "ok", cross: "x", times: "x",
        asciiOnly: true)
}
