import ScreenMatesCore

/// The debug panel (`D`): what the dashboard runs on — ids, paths, the clock, the group link,
/// the notices recorded today — and a few actions.
struct DebugView {
    let model: DashboardModel

    func draw(into frame: inout Frame) {
        let screen = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        let (body, footer) = screen.splitBottom(1)
        frame.box(body, title: "Debug")
        let inner = body.inner
        let lines = model.data?.debugLines ?? []
        let labelWidth = min(22, (lines.map { CellWidth.of($0.label) }.max() ?? 0) + 2)
        for (index, line) in lines.prefix(inner.height).enumerated() {
            let y = inner.y + index
            frame.put(line.label, x: inner.x + 1, y: y, style: Style(.muted), maxWidth: labelWidth)
            frame.put(
                line.value, x: inner.x + 1 + labelWidth, y: y, style: Style(.text),
                maxWidth: max(0, inner.width - 2 - labelWidth))
        }
        FooterView(keys: model.keys.footer(for: .debug), warning: nil, note: model.data?.warning)
            .draw(into: &frame, in: footer)
    }
}
