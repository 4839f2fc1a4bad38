import Foundation
import ScreenMatesCore

/// The group leaderboard: ranked rows with blocks against the goal, a small bar, the streak and
/// when each member was last active. Draws only the rows that fit, from the scroll position,
/// so a group of thousands costs no more than a group of ten.
struct LeaderboardView {
    let model: ScreensModel
    let data: DashboardContent
    /// The box's title; "Leaderboard · <period>" when nil.
    var title: String? = nil
    /// Whether the period tabs show on the top edge (not where the period cannot be changed).
    var showsTabs = true

    struct Columns {
        let rank = 4
        let name: Int
        let blocks = 8
        let bar: Int
        let streak = 8
        let active = 10

        init(width: Int) {
            bar = width >= 70 ? 12 : (width >= 56 ? 6 : 0)
            name = max(6, width - 4 - 8 - (bar > 0 ? bar + 2 : 0) - 8 - 10 - 2)
        }
    }

    func draw(into frame: inout Frame, in rect: Rect) {
        guard rect.height >= 3 else { return }
        let period = model.period
        frame.box(rect, title: title ?? "Leaderboard \(frame.glyphs.bullet) \(period.title)")
        if showsTabs { drawTabs(into: &frame, rect: rect) }
        let inner = rect.inner
        let columns = Columns(width: inner.width - 1)
        let entries = data.leaderboard(period)
        drawTitles(into: &frame, columns: columns, x: inner.x + 1, y: inner.y)
        let rows = max(0, inner.height - 1)
        if entries.isEmpty {
            frame.put(
                "No members yet.", x: inner.x + 1, y: inner.y + 1, style: Style(.muted), maxWidth: inner.width - 1)
            return
        }
        let first = min(model.scroll, max(0, entries.count - rows))
        let goal = data.today.progress.goal * period.daysSoFar(through: data.today.date)
        for (offset, entry) in entries[first..<min(entries.count, first + rows)].enumerated() {
            drawRow(
                into: &frame, entry: entry, columns: columns, x: inner.x, y: inner.y + 1 + offset, width: inner.width,
                goal: goal)
        }
        let g = frame.glyphs
        if first > 0 {
            frame.put(" \(g.arrowUp) \(first) above ", x: rect.x + 2, y: rect.maxY - 1, style: Style(.muted))
        }
        let below = entries.count - first - rows
        if below > 0 {
            let text = " \(g.arrowDown) \(below) more "
            frame.put(text, x: rect.maxX - 2 - CellWidth.of(text), y: rect.maxY - 1, style: Style(.muted))
        }
    }

    private func drawTabs(into frame: inout Frame, rect: Rect) {
        let labels = LeaderboardPeriod.allCases.map { ($0, " \($0.rawValue) ") }
        let total = labels.reduce(0) { $0 + CellWidth.of($1.1) }
        guard rect.width > total + 34 else { return }
        var x = rect.maxX - 2 - total
        for (period, label) in labels {
            let style = period == model.period ? Style(.accent, bold: true, reverse: true) : Style(.muted)
            x += frame.put(label, x: x, y: rect.y, style: style)
        }
    }

    private func drawTitles(into frame: inout Frame, columns: Columns, x: Int, y: Int) {
        let style = Style(.muted)
        var cx = x
        cx += frame.put(
            SafeText.padded("#", toCells: columns.rank - 1, alignRight: true) + " ", x: cx, y: y, style: style)
        cx += frame.put(SafeText.padded("name", toCells: columns.name), x: cx, y: y, style: style)
        cx += frame.put(SafeText.padded("blocks", toCells: columns.blocks, alignRight: true), x: cx, y: y, style: style)
        if columns.bar > 0 { cx += columns.bar + 2 }
        cx += frame.put(SafeText.padded("streak", toCells: columns.streak, alignRight: true), x: cx, y: y, style: style)
        frame.put("  active", x: cx, y: y, style: style)
    }

    private func drawRow(
        into frame: inout Frame, entry: LeaderboardEntry, columns: Columns, x: Int, y: Int, width: Int, goal: Int
    ) {
        let member = entry.member
        let base = member.isMe ? Style(.highlight, bold: true) : Style(.text)
        if member.isMe { frame.fill(Rect(x: x, y: y, width: width, height: 1), style: base) }
        var cx = x + 1
        let rank = entry.rank.map(String.init) ?? "-"
        cx += frame.put(
            SafeText.padded(rank, toCells: columns.rank - 1, alignRight: true) + " ", x: cx, y: y, style: base)
        let you = member.isMe ? " (you)" : ""
        let nameText = SafeText.truncated(
            member.name, toCells: columns.name - CellWidth.of(you) - 1, ellipsis: frame.glyphs.ellipsis)
        let nameWidth = frame.put(nameText, x: cx, y: y, style: base)
        frame.put(you, x: cx + nameWidth, y: y, style: member.isMe ? base : Style(.muted))
        cx += columns.name
        guard let blocks = member.blocks else {
            cx += frame.put(
                SafeText.padded("idle", toCells: columns.blocks, alignRight: true), x: cx, y: y, style: Style(.muted))
            if columns.bar > 0 { cx += columns.bar + 2 }
            cx += frame.put(
                SafeText.padded("\(member.streak)d", toCells: columns.streak, alignRight: true), x: cx, y: y,
                style: base)
            frame.put("  " + TimeFormat.relative(member.lastActive, now: data.now), x: cx, y: y, style: Style(.muted))
            return
        }
        let state = LimitState(blocksUsed: blocks, goal: max(1, goal))
        cx += frame.put(
            SafeText.padded("\(blocks)/\(goal)", toCells: columns.blocks, alignRight: true), x: cx, y: y,
            style: Style(state.role, bold: member.isMe))
        if columns.bar > 0 {
            let (filled, empty) = ProgressBar.pieces(
                fraction: Double(blocks) / Double(max(1, goal)), width: columns.bar, glyphs: frame.glyphs)
            cx += 2
            let w = frame.put(filled, x: cx, y: y, style: Style(state.role))
            frame.put(empty, x: cx + w, y: y, style: Style(.barEmpty))
            cx += columns.bar
        }
        cx += frame.put(
            SafeText.padded("\(member.streak)d", toCells: columns.streak, alignRight: true), x: cx, y: y, style: base)
        frame.put(
            "  " + TimeFormat.relative(member.lastActive, now: data.now), x: cx, y: y,
            style: member.isMe ? base : Style(.muted), maxWidth: columns.active + 2)
    }
}
