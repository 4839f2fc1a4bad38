import ScreenMatesCore

/// The debug panel (`D`): what the dashboard runs on — ids, paths, the clock, the group link,
/// the notices recorded today — and its actions: a test notice, sync now, the end of the day,
/// clear local data (after a confirmation).
struct DebugView {
    let model: DashboardModel

    func draw(into frame: inout Frame) {
        let screen = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        let (body, footer) = screen.splitBottom(1)
        frame.box(body, title: "Debug")
        let inner = body.inner
        let width = max(1, inner.width - 2)
        let notes = noteLines(width: width, limit: max(1, inner.height / 2), glyphs: frame.glyphs)
        // The notes follow the facts after a blank row (the facts give way on a short screen).
        let lines = model.data?.debugLines ?? []
        let factsHeight = min(lines.count, max(0, inner.height - (notes.isEmpty ? 0 : notes.count + 1)))
        let notesY = inner.y + factsHeight + (factsHeight > 0 ? 1 : 0)
        let labelWidth = min(22, (lines.map { CellWidth.of($0.label) }.max() ?? 0) + 2)
        for (index, line) in lines.prefix(factsHeight).enumerated() {
            let y = inner.y + index
            frame.put(line.label, x: inner.x + 1, y: y, style: Style(.muted), maxWidth: labelWidth)
            frame.put(
                line.value, x: inner.x + 1 + labelWidth, y: y, style: Style(.text),
                maxWidth: max(0, inner.width - 2 - labelWidth))
        }
        for (index, line) in notes.enumerated() {
            frame.put(line.0, x: inner.x + 1, y: notesY + index, style: line.1, maxWidth: width)
        }
        if model.debugPanel.confirmingClear {
            FooterView(hints: [KeyHint("y", "clear it all"), KeyHint("any other key", "cancel")])
                .draw(into: &frame, in: footer)
        } else {
            FooterView(keys: model.keys.footer(for: .debug), warning: nil, note: model.data?.warning)
                .draw(into: &frame, in: footer)
        }
    }

    /// What clearing takes away, while it waits for `y`; else the last action's outcome.
    private func noteLines(width: Int, limit: Int, glyphs: Glyphs) -> [(String, Style)] {
        let state = model.debugPanel
        if state.confirmingClear {
            let group = model.data?.group.map {
                " You stay a member of group \($0.code) in the group store: join it again with its code, or leave it first (g)."
            }
            let text =
                "Clear all local data? The usage events, the day history, the notices, the leaderboard cache and your settings (name, apps, group) in this data directory are deleted, and config.toml is moved aside. Your user id stays."
                + (group ?? "") + " Press y to clear it all; any other key keeps everything."
            return WordWrap.lines(text, width: width, limit: limit, ellipsis: glyphs.ellipsis).map {
                ($0, Style(.warning, bold: true))
            }
        }
        guard let message = state.message else { return [] }
        return WordWrap.lines(message, width: width, limit: limit, ellipsis: glyphs.ellipsis).map {
            ($0, Style(state.messageIsError ? .error : .good, bold: true))
        }
    }
}
