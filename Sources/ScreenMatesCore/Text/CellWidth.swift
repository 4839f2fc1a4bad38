/// Display width in terminal cells, as the terminal library measures it.
public enum CellWidth {
    /// 0 for combining marks, 2 for wide characters, 1 otherwise; -1 when not printable.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }  // The common case, without a search.
        if contains(CellWidthTable.unprintable, value) { return -1 }
        if contains(CellWidthTable.zeroWidth, value) { return 0 }
        if contains(CellWidthTable.doubleWidth, value) { return 2 }
        return 1
    }

    /// Cells taken by `text` once it is safe to display.
    public static func of(_ text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += max(0, of(scalar)) }
        return total
    }

    private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if value < ranges[mid].lowerBound {
                high = mid - 1
            } else if value > ranges[mid].upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}

/// One terminal cell's worth of text: a printing character and the zero-width marks that
/// combine with it. This is the unit ncurses stores per cell, so layout never splits one.
public struct TextCell: Hashable, Sendable {
    public let text: String
    /// 1 or 2.
    public let width: Int

    public init(text: String, width: Int) {
        self.text = text
        self.width = width
    }

    /// Splits display-safe text into cells. Run `SafeText.displayable` first: anything that is
    /// not printable here is skipped.
    public static func split(_ text: String) -> [TextCell] {
        var cells: [TextCell] = []
        var current = ""
        var currentWidth = 0
        var marks = 0
        for scalar in text.unicodeScalars {
            let width = CellWidth.of(scalar)
            if width < 0 { continue }
            if width == 0 {
                // A mark with nothing to sit on is dropped; more than a few stacked marks are
                // dropped too, as they draw outside the cell in many terminals.
                if currentWidth > 0 && marks < SafeText.maximumMarksPerCell {
                    current.unicodeScalars.append(scalar)
                    marks += 1
                }
                continue
            }
            if currentWidth > 0 { cells.append(TextCell(text: current, width: currentWidth)) }
            current = String(scalar)
            currentWidth = width
            marks = 0
        }
        if currentWidth > 0 { cells.append(TextCell(text: current, width: currentWidth)) }
        return cells
    }
}
