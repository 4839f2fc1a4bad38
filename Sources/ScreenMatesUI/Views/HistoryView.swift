import ScreenMatesCore

/// The history screen (`h`): the last 7 days as bars against the goal line, this week's and
/// this month's totals, and the streaks with the days over the limit.
///
/// Bars grow in eighths of a cell (whole cells of `#` in ASCII), on a scale whose top is the
/// busier of the goal and the busiest day, so the goal line always shows. A day over the limit
/// is drawn in the over colour and its value says so (`11/8`) for terminals without colour.
struct HistoryView {
    let model: ScreensModel

    /// Rows of the totals and streak boxes under the chart.
    static let totalsHeight = 7
    static let lowerPartials = ["▁", "▂", "▃", "▄", "▅", "▆", "▇"]

    func draw(into frame: inout Frame) {
        let (headerRow, belowHeader) = frame.bounds.splitTop(1)
        let (body, footer) = belowHeader.splitBottom(1)
        FooterView(keys: model.keys.footer(for: .history), warning: model.data?.warning, note: nil)
            .draw(into: &frame, in: footer)
        guard let data = model.data, let history = data.history else {
            frame.box(body, title: "History")
            frame.put("Loading…", x: body.x + 3, y: body.y + 2, style: Style(.muted), maxWidth: body.width - 6)
            return
        }
        HeaderView(data: data).draw(into: &frame, in: headerRow)
        let (chart, lower) = body.splitBottom(Self.totalsHeight)
        drawChart(&frame, in: chart, history: history)
        let half = lower.width / 2
        let columns = lower.columns([half, lower.width - half])
        drawTotals(&frame, in: columns[0], history: history)
        drawStreaks(&frame, in: columns[1], history: history)
    }

    // MARK: - Chart

    private func drawChart(_ frame: inout Frame, in rect: Rect, history: HistoryOverview) {
        let days = history.days
        frame.box(rect, title: "History \(frame.glyphs.bullet) last \(days.count) days")
        let inner = rect.inner
        guard let today = days.last, inner.height >= 4, !days.isEmpty else { return }
        let goal = today.goal
        // A line saying what the bars are, where there is room for it above the plot.
        let legend = inner.height >= 7
        if legend {
            let text = DashboardView.fitting(
                [
                    "vice blocks a day; the line is today's goal of \(goal) \(goal == 1 ? "block" : "blocks")",
                    "vice blocks a day against a goal of \(goal)", "blocks against goal \(goal)",
                ], width: inner.width - 2, ellipsis: frame.glyphs.ellipsis)
            frame.put(text, x: inner.x + 1, y: inner.y, style: Style(.muted), maxWidth: inner.width - 2)
        }
        let plotTop = inner.y + (legend ? 1 : 0)
        let rows = inner.maxY - 2 - plotTop
        guard rows >= 1 else { return }
        let top = max(1, days.map { max($0.viceBlocks ?? 0, $0.goal) }.max() ?? 1)
        let labelWidth = max(2, String(top).count)
        let axisX = inner.x + 1 + labelWidth + 1
        let plotX = axisX + 1
        let plotWidth = inner.maxX - 1 - plotX
        let slot = max(1, plotWidth / days.count)
        let barWidth = max(1, min(slot - 2, 8))
        // The goal's row, counted from the bottom (0 is the lowest row).
        let goalRow = min(rows - 1, max(0, Int((Double(goal) / Double(top) * Double(rows)).rounded()) - 1))
        func y(ofRow row: Int) -> Int { plotTop + rows - 1 - row }

        for row in 0..<rows {
            frame.put(frame.glyphs.vertical, x: axisX, y: y(ofRow: row), style: Style(.border))
        }
        label(&frame, "0", row: 0, x: inner.x + 1, width: labelWidth, y: y(ofRow: 0))
        label(&frame, String(goal), row: goalRow, x: inner.x + 1, width: labelWidth, y: y(ofRow: goalRow))
        if goalRow != rows - 1 && top != goal {
            label(&frame, String(top), row: rows - 1, x: inner.x + 1, width: labelWidth, y: y(ofRow: rows - 1))
        }
        let line = frame.glyphs.asciiOnly ? "-" : "╌"
        frame.put(
            String(repeating: line, count: max(0, slot * days.count)), x: plotX, y: y(ofRow: goalRow),
            style: Style(.muted))

        for (index, day) in days.enumerated() {
            let slotX = plotX + index * slot
            let barX = slotX + (slot - barWidth) / 2
            drawBar(&frame, day: day, x: barX, width: barWidth, rows: rows, top: top, bottomY: y(ofRow: 0))
            let name = day.isToday ? "today" : HeaderView.weekdays[day.date.isoWeekday - 1]
            let caption = DashboardView.fitting(
                ["\(name) \(day.date.day)", name, String(name.prefix(2))], width: slot)
            centre(
                &frame, caption, slotX: slotX, slot: slot, y: inner.maxY - 2,
                style: Style(day.isToday ? .accent : .text))
            let value = day.viceBlocks.map { "\($0)/\(day.goal)" } ?? "-"
            let shown = DashboardView.fitting([value, day.viceBlocks.map(String.init) ?? "-"], width: slot)
            centre(
                &frame, shown, slotX: slotX, slot: slot, y: inner.maxY - 1,
                style: Style(day.isOver ? .over : .muted, bold: day.isOver))
        }
    }

    private func drawBar(
        _ frame: inout Frame, day: HistoryOverview.Day, x: Int, width: Int, rows: Int, top: Int, bottomY: Int
    ) {
        guard let blocks = day.viceBlocks, blocks > 0 else { return }
        let style = Style(day.isOver ? .over : day.isToday ? .accent : .good)
        let exact = Double(blocks) / Double(top) * Double(rows)
        if frame.glyphs.asciiOnly {
            let height = max(1, Int(exact.rounded()))
            for row in 0..<min(rows, height) {
                frame.put(String(repeating: "#", count: width), x: x, y: bottomY - row, style: style)
            }
            return
        }
        let eighths = min(rows * 8, max(1, Int((exact * 8).rounded())))
        for row in 0..<(eighths / 8) {
            frame.put(String(repeating: frame.glyphs.barFull, count: width), x: x, y: bottomY - row, style: style)
        }
        if eighths % 8 > 0 {
            frame.put(
                String(repeating: Self.lowerPartials[eighths % 8 - 1], count: width), x: x, y: bottomY - eighths / 8,
                style: style)
        }
    }

    private func label(_ frame: inout Frame, _ text: String, row: Int, x: Int, width: Int, y: Int) {
        frame.put(SafeText.padded(text, toCells: width, alignRight: true), x: x, y: y, style: Style(.muted))
    }

    private func centre(_ frame: inout Frame, _ text: String, slotX: Int, slot: Int, y: Int, style: Style) {
        let width = CellWidth.of(text)
        frame.put(text, x: slotX + max(0, (slot - width) / 2), y: y, style: style, maxWidth: slot)
    }

    // MARK: - Totals and streaks

    private func drawTotals(_ frame: inout Frame, in rect: Rect, history: HistoryOverview) {
        frame.box(rect, title: "Totals \(frame.glyphs.bullet) today included")
        let inner = rect.inner
        let week = history.week
        let month = history.month
        // Blocks and time include today so far; days over the limit count finished days only.
        let rows: [([String], String, String, Style)] = [
            (["vice blocks", "blocks"], "\(week.viceBlocks)", "\(month.viceBlocks)", Style(.text)),
            (
                ["time on vice", "spent"], TimeFormat.duration(seconds: week.spentSeconds),
                TimeFormat.duration(seconds: month.spentSeconds), Style(.text)
            ),
            (
                ["earned", "earned"], TimeFormat.duration(seconds: week.earnedSeconds),
                TimeFormat.duration(seconds: month.earnedSeconds), Style(.good)
            ),
            (
                ["over the limit", "over"], days(week.daysOver), days(month.daysOver),
                Style(week.daysOver + month.daysOver > 0 ? .over : .muted)
            ),
        ]
        let valueCells = rows.flatMap { [$0.1, $0.2] }.map(CellWidth.of).max() ?? 0
        // Fullest first: long labels and headings, short labels, then short headings too; the
        // values are never cut.
        let choices: [(labels: Int, headings: [String], gap: Int)] = [
            (0, ["this week", "this month"], 2), (1, ["this week", "this month"], 2), (1, ["week", "month"], 2),
            (1, ["week", "month"], 1),
        ]
        func valueWidth(_ choice: (labels: Int, headings: [String], gap: Int)) -> Int {
            max(valueCells, choice.headings.map(CellWidth.of).max() ?? 0) + choice.gap
        }
        let usable = inner.width - 2
        let choice =
            choices.first { choice in
                let labels = rows.map { CellWidth.of($0.0[choice.labels]) }.max() ?? 0
                return labels + 1 + 2 * valueWidth(choice) <= usable
            } ?? choices.last!
        let columnWidth = valueWidth(choice)
        let x = inner.x + 1
        let valuesX = inner.maxX - 1 - 2 * columnWidth
        var y = inner.y
        for (index, heading) in choice.headings.enumerated() {
            let columnX = valuesX + index * columnWidth
            frame.put(
                SafeText.padded(heading, toCells: columnWidth, alignRight: true), x: columnX, y: y,
                style: Style(.title, bold: true), maxWidth: max(0, inner.maxX - 1 - columnX))
        }
        for (labels, weekValue, monthValue, style) in rows {
            y += 1
            guard y < inner.maxY else { break }
            frame.put(labels[choice.labels], x: x, y: y, style: Style(.muted), maxWidth: max(0, valuesX - x - 1))
            for (index, value) in [weekValue, monthValue].enumerated() {
                let columnX = valuesX + index * columnWidth
                frame.put(
                    SafeText.padded(value, toCells: columnWidth, alignRight: true), x: columnX, y: y, style: style,
                    maxWidth: max(0, inner.maxX - 1 - columnX))
            }
        }
    }

    /// The streaks, today's status, and the finished days kept and over the limit. Today is
    /// counted in neither until it ends: its status says how it stands.
    private func drawStreaks(_ frame: inout Frame, in rect: Rect, history: HistoryOverview) {
        frame.box(rect, title: "Streak")
        let inner = rect.inner
        let all = history.allTime
        let hasToday = history.days.last?.isToday == true
        let finished = all.days - (hasToday ? 1 : 0)
        let over = all.daysOver
        var lines: [([String], String, Style)] = [
            (["current"], days(history.streak.current), Style(.accent, bold: true)),
            (["best"], days(history.streak.best), Style(.text)),
        ]
        if hasToday, let today = model.data?.today {
            let status = today.todayStatus == .brokenToday ? "broken" : today.todayStatus.rawValue
            lines.append((["today"], status, Style(today.state.role, bold: true)))
        }
        if finished > 0 {
            lines.append(
                (["over the limit", "over"], "\(days(over)) of \(finished)", Style(over > 0 ? .over : .muted)))
            lines.append((["kept"], "\(days(finished - over)) of \(finished)", Style(.good)))
        } else {
            lines.append((["days ended", "ended"], "none yet", Style(.muted)))
        }
        let usable = inner.width - 2
        let valueCells = lines.map { CellWidth.of($0.1) }.max() ?? 0
        func labelWidth(_ short: Bool) -> Int {
            (lines.map { CellWidth.of(short ? $0.0.last! : $0.0[0]) }.max() ?? 0) + 2
        }
        let short = labelWidth(false) + valueCells > usable
        let width = labelWidth(short)
        for (index, line) in lines.enumerated() where inner.y + index < inner.maxY {
            let y = inner.y + index
            frame.put(short ? line.0.last! : line.0[0], x: inner.x + 1, y: y, style: Style(.muted), maxWidth: usable)
            frame.put(line.1, x: inner.x + 1 + width, y: y, style: line.2, maxWidth: max(0, usable - width))
        }
    }

    private func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }
}
