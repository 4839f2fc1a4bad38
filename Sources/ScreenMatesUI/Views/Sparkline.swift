import ScreenMatesCore

/// A one-line chart of the last days' vice blocks, one cell per day, drawn with the eight
/// lower-block characters (ASCII: eight marks from `_` to `#`). The scale is the larger of
/// the goal and the busiest day, so a day at the goal always stands at the same height while
/// the goal does not change; a day before tracking began is a blank cell.
enum Sparkline {
    static let unicodeLevels = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let asciiLevels = ["_", ".", ",", "-", "=", "+", "*", "#"]

    /// The character for each day, oldest first.
    static func cells(_ days: [HistoryOverview.Day], glyphs: Glyphs) -> [String] {
        let levels = glyphs.asciiOnly ? asciiLevels : unicodeLevels
        let top = max(1, days.map { max($0.viceBlocks ?? 0, $0.goal) }.max() ?? 1)
        return days.map { day in
            guard let blocks = day.viceBlocks else { return " " }
            let level = Int((Double(blocks) / Double(top) * Double(levels.count - 1)).rounded())
            return levels[min(max(level, 0), levels.count - 1)]
        }
    }

    /// Draws the days from `x` on row `y`, each in its state's colour (over the limit, today,
    /// kept); returns the cells drawn.
    @discardableResult
    static func draw(_ days: [HistoryOverview.Day], into frame: inout Frame, x: Int, y: Int) -> Int {
        var column = x
        for (day, cell) in zip(days, cells(days, glyphs: frame.glyphs)) {
            let role: ColorRole = day.isOver ? .over : day.isToday ? .accent : .good
            column += frame.put(cell, x: column, y: y, style: Style(role))
        }
        return column - x
    }
}
