import ScreenMatesCore

/// A whole screen as a grid of styled cells — what the dashboard looks like, with no terminal
/// involved. Views draw into a frame; golden tests read it as text; the terminal writes only
/// the cells that differ from the previous frame.
///
/// All text goes through `SafeText` on the way in, so a frame can never hold a control
/// character, and a wide character is never split: one that does not fit is replaced by a space.
public struct Frame: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public let glyphs: Glyphs
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, glyphs: Glyphs = .unicode) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.glyphs = glyphs
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Copies `count` rows of `source` from `firstRow`, columns `x..<x + width`, to this frame
    /// from `toRow`: a page drawn whole, shown a window at a time. Rows past either frame's edge
    /// are left out.
    public mutating func copyRows(from source: Frame, firstRow: Int, count: Int, toRow: Int, x: Int, width: Int) {
        for offset in 0..<max(0, count) {
            let from = firstRow + offset
            let to = toRow + offset
            guard from >= 0, from < source.height, to >= 0, to < height else { continue }
            for column in max(0, x)..<min(x + width, self.width, source.width) {
                cells[to * self.width + column] = source.cells[from * source.width + column]
            }
        }
    }

    /// Writes `text` from column `x` on row `y`, clipped to the frame and to `maxWidth` cells.
    /// Returns the number of cells written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height else { return 0 }
        // The frame's right edge, or `maxWidth` cells from `x`, whichever comes first.
        let limit = min(width, maxWidth.map { x + $0 } ?? width)
        var column = x
        for cell in TextCell.split(SafeText.displayable(text)) {
            var pieces = [(cell.text, cell.width)]
            if glyphs.asciiOnly && !cell.text.unicodeScalars.allSatisfy(\.isASCII) {
                pieces = Array(repeating: ("?", 1), count: cell.width)
            }
            for (piece, pieceWidth) in pieces {
                if column + pieceWidth > limit {
                    // A wide character that does not fit is never split: a space takes its place.
                    if pieceWidth == 2 && column < limit && column >= 0 {
                        set(column, y, " ", 1, style)
                        column += 1
                    }
                    return max(0, column - x)
                }
                if column >= 0 {
                    set(column, y, piece, pieceWidth, style)
                } else if column + pieceWidth > 0 {
                    // Only the right half of a wide character would show at the left edge.
                    set(0, y, " ", 1, style)
                }
                column += pieceWidth
            }
        }
        return max(0, column - x)
    }

    /// Fills a rectangle with one character (a single-cell one) in one style.
    public mutating func fill(_ rect: Rect, with character: String = " ", style: Style = .plain) {
        for y in max(0, rect.y)..<min(height, rect.maxY) {
            for x in max(0, rect.x)..<min(width, rect.maxX) {
                set(x, y, character, 1, style)
            }
        }
    }

    /// Draws a one-cell border around `rect`, with an optional title on the top edge.
    public mutating func box(
        _ rect: Rect, title: String? = nil, style: Style = Style(.border), titleStyle: Style? = nil
    ) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let g = glyphs
        let top = rect.y
        let bottom = rect.maxY - 1
        for x in rect.x + 1..<rect.maxX - 1 {
            put(g.horizontal, x: x, y: top, style: style)
            put(g.horizontal, x: x, y: bottom, style: style)
        }
        for y in rect.y + 1..<rect.maxY - 1 {
            put(g.vertical, x: rect.x, y: y, style: style)
            put(g.vertical, x: rect.maxX - 1, y: y, style: style)
        }
        put(g.topLeft, x: rect.x, y: top, style: style)
        put(g.topRight, x: rect.maxX - 1, y: top, style: style)
        put(g.bottomLeft, x: rect.x, y: bottom, style: style)
        put(g.bottomRight, x: rect.maxX - 1, y: bottom, style: style)
        if let title, rect.width > 6 {
            put(
                " \(title) ", x: rect.x + 2, y: top, style: titleStyle ?? Style(.title, bold: true),
                maxWidth: rect.width - 4)
        }
    }

    /// The text of row `y`, continuation cells left out, so it reads as the screen shows it.
    public func line(_ y: Int) -> String {
        var result = ""
        for x in 0..<width {
            result += self[x, y].text
        }
        return result
    }

    /// The whole frame as text, one line per row, trailing spaces removed.
    public var text: String {
        (0..<height).map { y in
            var line = self.line(y)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    private mutating func set(_ x: Int, _ y: Int, _ text: String, _ cellWidth: Int, _ style: Style) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let row = y * width
        // Overwriting either half of a wide character blanks the other half.
        if cells[row + x].isContinuation && x > 0 {
            cells[row + x - 1] = Cell(text: " ", style: cells[row + x - 1].style)
        }
        let end = x + cellWidth
        if end < width && cells[row + end].isContinuation {
            cells[row + end] = Cell(text: " ", style: cells[row + end].style)
        }
        if cellWidth == 2 && end > width {
            cells[row + x] = Cell(text: " ", style: style)
            return
        }
        cells[row + x] = Cell(text: text, style: style)
        if cellWidth == 2 { cells[row + x + 1] = Cell(text: "", style: style) }
    }
}
