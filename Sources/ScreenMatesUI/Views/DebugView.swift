import ScreenMatesCore

/// The debug panel (`D`): what the dashboard runs on — ids, paths, the clock, the group link,
/// the notices recorded today — and its actions: a test notice, sync now, the end of the day,
/// clear local data (after a confirmation).
struct DebugView {
    let model: ScreensModel

    /// A row of the facts: a label (on a fact's first row only) and a value, or a piece of it.
    struct Row: Hashable {
        var label: String
        var value: String
    }

    /// The facts as rows `width` cells wide: a value too long for its column (a path, an
    /// instant with its reset) goes on under itself, never cut.
    static func rows(_ lines: [DashboardContent.DebugLine], width: Int) -> (rows: [Row], labelWidth: Int) {
        let labelWidth = min(22, (lines.map { CellWidth.of($0.label) }.max() ?? 0) + 2)
        let valueWidth = max(1, width - labelWidth)
        var rows: [Row] = []
        for line in lines {
            let pieces = WordWrap.lines(line.value, width: valueWidth)
            for (index, piece) in (pieces.isEmpty ? [""] : pieces).enumerated() {
                rows.append(Row(label: index == 0 ? line.label : "", value: piece))
            }
        }
        return (rows, labelWidth)
    }

    /// Where things go on a `width` × `height` panel: the notes (a confirmation, an outcome)
    /// whole at the bottom, the facts in the rows above them, scrolled by `scroll`.
    struct Layout {
        let body: Rect
        let rows: [Row]
        let labelWidth: Int
        let notes: [(String, Style)]
        /// Rows of facts shown.
        let window: Int

        var maximumScroll: Int { max(0, rows.count - window) }
    }

    static func layout(_ model: ScreensModel, glyphs: Glyphs) -> Layout {
        let body = Rect(x: 0, y: 0, width: model.width, height: model.height).splitBottom(1).rest
        let inner = body.inner
        let width = max(1, inner.width - 2)
        let notes = noteLines(model, width: width, limit: max(1, inner.height - 2), glyphs: glyphs)
        let (rows, labelWidth) = rows(model.data?.debugLines ?? [], width: width)
        // While the confirmation waits for its key, it alone is shown: any key answers it, so
        // the facts could not be scrolled.
        let window =
            model.debugPanel.confirmingClear ? 0 : max(0, inner.height - (notes.isEmpty ? 0 : notes.count + 1))
        return Layout(body: body, rows: rows, labelWidth: labelWidth, notes: notes, window: window)
    }

    /// How far the facts scroll on `model`'s screen.
    static func maximumScroll(_ model: ScreensModel) -> Int { layout(model, glyphs: .unicode).maximumScroll }

    func draw(into frame: inout Frame) {
        let layout = Self.layout(model, glyphs: frame.glyphs)
        let screen = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        let footer = screen.splitBottom(1).bottom
        frame.box(layout.body, title: "Debug")
        let inner = layout.body.inner
        let width = max(1, inner.width - 2)
        let first = max(0, min(model.debugPanel.scroll, layout.maximumScroll))
        let shown = layout.rows.dropFirst(first).prefix(layout.window)
        for (index, row) in shown.enumerated() {
            let y = inner.y + index
            frame.put(row.label, x: inner.x + 1, y: y, style: Style(.muted), maxWidth: layout.labelWidth)
            frame.put(
                row.value, x: inner.x + 1 + layout.labelWidth, y: y, style: Style(.text),
                maxWidth: max(0, width - layout.labelWidth))
        }
        if layout.window > 0 {
            ScrollMark.draw(
                into: &frame, box: layout.body, above: first, below: layout.rows.count - first - shown.count)
        }
        // The notes follow the facts after a blank row.
        let notesY = inner.y + shown.count + (shown.isEmpty ? 0 : 1)
        for (index, line) in layout.notes.enumerated() {
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
    private static func noteLines(_ model: ScreensModel, width: Int, limit: Int, glyphs: Glyphs) -> [(
        String, Style
    )] {
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
