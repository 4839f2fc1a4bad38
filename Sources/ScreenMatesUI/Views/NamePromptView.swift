import ScreenMatesCore

/// First run: asks for the display name, checking it on every key.
struct NamePromptView {
    let model: DashboardModel

    func draw(into frame: inout Frame) {
        let width = min(frame.width - 4, 64)
        // Tall enough for a blank row between a two-line error and the keys below it.
        let rect = Rect(x: (frame.width - width) / 2, y: max(0, (frame.height - 12) / 2), width: width, height: 12)
        frame.box(rect, title: "Welcome to ScreenMates")
        let inner = rect.inner
        let x = inner.x + 2
        let w = inner.width - 4
        frame.put("Pick a display name for the leaderboard:", x: x, y: inner.y + 1, style: Style(.text), maxWidth: w)
        frame.put(
            "1-20 letters, digits or underscores.", x: x, y: inner.y + 2, style: Style(.muted), maxWidth: w)
        let label = "Name: "
        let used = frame.put(label, x: x, y: inner.y + 4, style: Style(.text, bold: true))
        let typed = model.nameInput.text
        let shown =
            CellWidth.of(SafeText.displayable(typed)) > w - used - 1
            ? SafeText.truncated(typed, toCells: w - used - 1) : typed
        let typedWidth = frame.put(
            shown, x: x + used, y: inner.y + 4, style: Style(.accent, bold: true), maxWidth: w - used)
        frame.put(frame.glyphs.cursor, x: x + used + typedWidth, y: inner.y + 4, style: Style(.accent))
        let g = frame.glyphs
        if let error = model.nameError {
            for (index, line) in HelpView.wrap("\(g.cross) \(error)", width: w).prefix(2).enumerated() {
                frame.put(line, x: x, y: inner.y + 6 + index, style: Style(.error, bold: true), maxWidth: w)
            }
        } else if !typed.isEmpty {
            switch Result(catching: { () throws(DisplayNameError) in try DisplayName(validating: typed) }) {
            case .success:
                frame.put(
                    "\(g.check) looks good; enter saves it", x: x, y: inner.y + 6, style: Style(.good), maxWidth: w)
            case .failure(let error):
                for (index, line) in HelpView.wrap(error.message, width: w).prefix(2).enumerated() {
                    frame.put(line, x: x, y: inner.y + 6 + index, style: Style(.warning), maxWidth: w)
                }
            }
        }
        frame.put("enter save   esc quit", x: x, y: inner.maxY - 1, style: Style(.muted), maxWidth: w)
    }
}
