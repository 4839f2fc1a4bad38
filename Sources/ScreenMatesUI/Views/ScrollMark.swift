import ScreenMatesCore

/// The marks on the bottom edge of a box whose rows scroll: how many rows are above and below
/// the ones shown, with the keys that bring them into view (`↑/k 3 above`, `↓/j 5 more`).
enum ScrollMark {
    static func draw(into frame: inout Frame, box: Rect, above: Int, below: Int) {
        guard box.height >= 2 else { return }
        let g = frame.glyphs
        let y = box.maxY - 1
        if above > 0 {
            frame.put(" \(g.arrowUp)/k \(above) above ", x: box.x + 2, y: y, style: Style(.muted))
        }
        if below > 0 {
            let text = " \(g.arrowDown)/j \(below) more "
            frame.put(text, x: box.maxX - 2 - CellWidth.of(text), y: y, style: Style(.muted))
        }
    }
}
