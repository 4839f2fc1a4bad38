import ScreenMatesCore

/// Draws the dashboard: header, the balance, streak and today panels, the leaderboard and the
/// footer of keys.
struct DashboardView {
    let model: ScreensModel
    let data: DashboardContent

    func draw(into frame: inout Frame) {
        let layout = DashboardLayout(width: frame.width, height: frame.height)
        HeaderView(data: data).draw(into: &frame, in: layout.header)
        drawBalance(into: &frame, in: layout.balance)
        drawStreak(into: &frame, in: layout.streak)
        drawToday(into: &frame, in: layout.today)
        LeaderboardView(model: model, data: data).draw(into: &frame, in: layout.leaderboard)
        if let pane = layout.notices { drawNotices(into: &frame, in: pane) }
        FooterView(keys: model.keys.footer(for: .dashboard), warning: data.warning, note: data.source)
            .draw(into: &frame, in: layout.footer)
    }

    private func drawBalance(into frame: inout Frame, in rect: Rect) {
        frame.box(rect, title: "Balance")
        let ledger = data.today.ledger
        let inner = rect.inner
        var row = inner.y
        frame.put(
            TimeFormat.duration(seconds: ledger.balanceSeconds), x: inner.x + 1, y: row,
            style: Style(.accent, bold: true), maxWidth: inner.width - 2)
        row += 1
        labelled(&frame, inner, row, "earned", TimeFormat.duration(seconds: ledger.earnedSeconds), Style(.good))
        row += 1
        labelled(&frame, inner, row, "spent", TimeFormat.duration(seconds: ledger.spentSeconds), Style(.text))
        row += 1
        let overdraft = ledger.overdraftSeconds
        labelled(
            &frame, inner, row, "overdraft", TimeFormat.duration(seconds: overdraft),
            overdraft > 0 ? Style(.over, bold: true) : Style(.muted))
    }

    private func drawStreak(into frame: inout Frame, in rect: Rect) {
        frame.box(rect, title: "Streak")
        let streak = data.today.streak
        let inner = rect.inner
        frame.put(
            days(streak.current), x: inner.x + 1, y: inner.y, style: Style(.accent, bold: true),
            maxWidth: inner.width - 2)
        labelled(&frame, inner, inner.y + 1, "best", days(streak.best), Style(.text))
        let status = data.today.todayStatus
        // "broken today" says its day itself; the others read after the label ("today at risk").
        labelled(
            &frame, inner, inner.y + 2, status == .brokenToday ? "" : "today", status.rawValue,
            Style(data.today.state.role, bold: true))
        drawSparkline(into: &frame, inner: inner)
    }

    /// The last 7 days under the streak, where the panel has a row and room for them.
    private func drawSparkline(into frame: inout Frame, inner: Rect) {
        guard let days = data.history?.days, inner.height >= 4 else { return }
        let label = "last \(days.count)d "
        guard CellWidth.of(label) + days.count <= inner.width - 2 else { return }
        let y = inner.y + 3
        let used = frame.put(label, x: inner.x + 1, y: y, style: Style(.muted))
        Sparkline.draw(days, into: &frame, x: inner.x + 1 + used, y: y)
    }

    private func drawToday(into frame: inout Frame, in rect: Rect) {
        frame.box(rect, title: "Today")
        let progress = data.today.progress
        let inner = rect.inner
        let state = progress.state
        let x = inner.x + 1
        let width = inner.width - 2
        // Narrow panels get shorter wordings rather than cut ones: a cut "137%" would read "1".
        let blocks = "\(progress.blocksUsed)"
        let percent = "  \(progress.percent)%"
        let goal = Self.fitting(
            [" / \(progress.goal) blocks", "/\(progress.goal) blocks", "/\(progress.goal)"],
            width: width - CellWidth.of(blocks + percent))
        var used = frame.put(blocks, x: x, y: inner.y, style: Style(state.role, bold: true), maxWidth: width)
        used += frame.put(goal, x: x + used, y: inner.y, style: Style(.text), maxWidth: width - used)
        frame.put(percent, x: x + used, y: inner.y, style: Style(state.role, bold: true), maxWidth: width - used)
        let (filled, empty) = ProgressBar.pieces(fraction: progress.fraction, width: width, glyphs: frame.glyphs)
        let filledWidth = frame.put(filled, x: x, y: inner.y + 1, style: Style(state.role), maxWidth: width)
        frame.put(empty, x: x + filledWidth, y: inner.y + 1, style: Style(.barEmpty), maxWidth: width - filledWidth)
        let details: [String]
        if progress.blocksOver > 0 {
            details = ["\(state.phrase) by \(progress.blocksOver)", "\(progress.blocksOver) over"]
        } else if progress.blocksLeft == 0 {
            details = ["at the limit \(frame.glyphs.bullet) 0 left", "at the limit"]
        } else {
            details = [
                "\(state.phrase) \(frame.glyphs.bullet) \(progress.blocksLeft) left", "\(progress.blocksLeft) left",
            ]
        }
        frame.put(
            Self.fitting(details, width: width, ellipsis: frame.glyphs.ellipsis), x: x, y: inner.y + 2,
            style: Style(state.role), maxWidth: width)
        let spent = TimeFormat.duration(seconds: data.today.ledger.spentSeconds)
        let others = data.today.otherMachinesBlocks
        // On one of several machines, where the blocks were used.
        let wordings =
            others > 0
            ? [
                "\(progress.blocksUsed - others) here, \(others) on other machines", "\(others) on other machines",
                "\(others) elsewhere",
            ] : ["\(spent) on vice apps", "\(spent) on vice"]
        frame.put(
            Self.fitting(wordings, width: width, ellipsis: frame.glyphs.ellipsis), x: x, y: inner.y + 3,
            style: Style(.muted), maxWidth: width)
    }

    private func drawNotices(into frame: inout Frame, in rect: Rect) {
        frame.box(rect, title: "Notices")
        let inner = rect.inner
        if data.notices.isEmpty {
            frame.put(
                "none yet", x: inner.x + 1, y: inner.y, style: Style(.muted), maxWidth: inner.width - 2)
            return
        }
        for (index, line) in data.notices.prefix(inner.height).enumerated() {
            NoticeRow(line: line, calendar: data.calendar, now: data.now)
                .draw(into: &frame, x: inner.x + 1, y: inner.y + index, width: inner.width - 2)
        }
    }

    /// The first of `candidates` (longest wording first) that fits in `width` cells, else the
    /// last one cut with an ellipsis.
    static func fitting(_ candidates: [String], width: Int, ellipsis: String = "…") -> String {
        candidates.first { CellWidth.of($0) <= width }
            ?? SafeText.truncated(candidates.last ?? "", toCells: width, ellipsis: ellipsis)
    }

    private func labelled(
        _ frame: inout Frame, _ inner: Rect, _ y: Int, _ label: String, _ value: String, _ style: Style
    ) {
        let x = inner.x + 1
        let width = inner.width - 2
        // When both do not fit, the value alone is worth more than a cut one.
        let fits = !label.isEmpty && CellWidth.of(label) + 1 + CellWidth.of(value) <= width
        let labelWidth = fits ? frame.put(label + " ", x: x, y: y, style: Style(.muted), maxWidth: width) : 0
        frame.put(value, x: x + labelWidth, y: y, style: style, maxWidth: width - labelWidth)
    }

    private func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }
}
