import ScreenMatesCore

/// Shown instead of a garbled dashboard when the terminal is below the minimum size. `q`
/// still quits.
struct TooSmallView {
    let width: Int
    let height: Int

    func draw(into frame: inout Frame) {
        let times = frame.glyphs.times
        let lines = [
            ("Terminal too small", Style(.error, bold: true)),
            (
                "\(width)\(times)\(height), need \(ScreensModel.minimumWidth)\(times)\(ScreensModel.minimumHeight)",
                Style(.text)
            ),
            ("enlarge it, or press q to quit", Style(.muted)),
        ]
        let top = max(0, (frame.height - lines.count) / 2)
        for (index, (text, style)) in lines.enumerated() {
            let shown = SafeText.truncated(text, toCells: frame.width)
            let x = max(0, (frame.width - CellWidth.of(shown)) / 2)
            frame.put(shown, x: x, y: top + index, style: style)
        }
    }
}
