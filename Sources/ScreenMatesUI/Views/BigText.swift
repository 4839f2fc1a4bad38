/// Letters five rows tall, for a group code to be read across a room (and copied without
/// mistakes). Covers the code alphabet: 2–9 and A–Z without I and O.
///
/// Each letter is five cells wide: four would leave M, N, W and H, or V and Y, too alike to
/// tell apart from a distance, which is the whole point of drawing them big.
enum BigText {
    static let height = 5
    /// Cells one character takes, with the gap after it.
    static let advance = 6

    static let font: [Character: [String]] = [
        "2": [" ### ", "#   #", "  ## ", " #   ", "#####"],
        "3": ["#### ", "    #", " ### ", "    #", "#### "],
        "4": ["#   #", "#   #", "#####", "    #", "    #"],
        "5": ["#####", "#    ", "#### ", "    #", "#### "],
        "6": [" ### ", "#    ", "#### ", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", "  #  "],
        "8": [" ### ", "#   #", " ### ", "#   #", " ### "],
        "9": [" ### ", "#   #", " ####", "    #", " ### "],
        "A": [" ### ", "#   #", "#####", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#### ", "#   #", "#### "],
        "C": [" ####", "#    ", "#    ", "#    ", " ####"],
        "D": ["#### ", "#   #", "#   #", "#   #", "#### "],
        "E": ["#####", "#    ", "#### ", "#    ", "#####"],
        "F": ["#####", "#    ", "#### ", "#    ", "#    "],
        "G": [" ####", "#    ", "#  ##", "#   #", " ####"],
        "H": ["#   #", "#   #", "#####", "#   #", "#   #"],
        "J": ["    #", "    #", "    #", "#   #", " ### "],
        "K": ["#   #", "#  # ", "###  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "#   #", "#   #"],
        "N": ["#   #", "##  #", "# # #", "#  ##", "#   #"],
        "P": ["#### ", "#   #", "#### ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "#   #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#### ", "#  # ", "#   #"],
        "S": [" ####", "#    ", " ### ", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "# # #", "## ##", "#   #"],
        "X": ["#   #", " # # ", "  #  ", " # # ", "#   #"],
        "Y": ["#   #", " # # ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "   # ", "  #  ", " #   ", "#####"],
    ]

    /// Cells `text` takes.
    static func width(of text: String) -> Int { max(0, text.count * advance - 1) }

    /// Draws `text` with its top-left corner at (`x`, `y`); characters without a glyph are
    /// left blank.
    static func draw(_ text: String, into frame: inout Frame, x: Int, y: Int, style: Style) {
        let ink = frame.glyphs.asciiOnly ? "#" : frame.glyphs.barFull
        for (index, character) in text.uppercased().enumerated() {
            guard let rows = font[character] else { continue }
            for (row, pattern) in rows.enumerated() {
                for (column, mark) in pattern.enumerated() where mark == "#" {
                    frame.put(ink, x: x + index * advance + column, y: y + row, style: style)
                }
            }
        }
    }

    /// Draws `text` centred in `rect` from its top row, and returns true; returns false and
    /// draws nothing when it does not fit (the caller then shows the plain text alone).
    @discardableResult
    static func drawCentred(_ text: String, into frame: inout Frame, in rect: Rect, style: Style) -> Bool {
        let width = width(of: text)
        guard width <= rect.width, height <= rect.height else { return false }
        draw(text, into: &frame, x: rect.x + (rect.width - width) / 2, y: rect.y, style: style)
        return true
    }
}
