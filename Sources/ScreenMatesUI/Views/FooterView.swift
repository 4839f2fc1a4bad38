import ScreenMatesCore

/// The bottom line: keys from the key table on the left, a warning or a note on the right.
struct FooterView {
    let keys: [KeyBinding]
    let warning: String?
    let note: String?

    func draw(into frame: inout Frame, in rect: Rect) {
        guard !rect.isEmpty else { return }
        var x = rect.x + 1
        var hints: [(Int, Int)] = []
        for binding in keys {
            let width = CellWidth.of(binding.label) + 1 + CellWidth.of(binding.summary) + 2
            hints.append((x, width))
            x += width
        }
        let message = warning ?? note
        let messageWidth = message.map { min(CellWidth.of($0) + 1, rect.width / 2) } ?? 0
        // Hints stop two blank cells before the message, so they never run into it.
        let limit = message == nil ? rect.maxX : rect.maxX - messageWidth - 2
        for (binding, (hx, width)) in zip(keys, hints) where hx + width - 2 <= limit {
            let used = frame.put(binding.label, x: hx, y: rect.y, style: Style(.key, bold: true))
            frame.put(" " + binding.summary, x: hx + used, y: rect.y, style: Style(.muted))
        }
        if let message {
            // A long message is cut with an ellipsis, keeping one blank cell at the right edge.
            frame.put(
                SafeText.truncated(message, toCells: messageWidth - 1, ellipsis: frame.glyphs.ellipsis),
                x: rect.maxX - messageWidth, y: rect.y,
                style: warning == nil ? Style(.muted) : Style(.error, bold: true))
        }
    }
}
