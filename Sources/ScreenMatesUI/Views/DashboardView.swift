import Foundation
import ScreenMatesCore

/// Draws the dashboard: header, the balance, streak and today panels, the leaderboard and the
/// footer of keys.
struct DashboardView {
    let model: DashboardModel
    let data: DashboardData

    func draw(into frame: inout Frame) {
        let layout = DashboardLayout(width: frame.width, height: frame.height)
        HeaderView(data: data).draw(into: &frame, in: layout.header)
        drawBalance(into: &frame, in: layout.balance)
        drawStreak(into: &frame, in: layout.streak)
        drawToday(into: &frame, in: layout.today)
        LeaderboardView(model: model, data: data).draw(into: &frame, in: layout.leaderboard)
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
        labelled(&frame, inner, inner.y + 2, "today", status.rawValue, Style(data.today.state.role, bold: true))
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
        frame.put(
            Self.fitting(["\(spent) on vice apps", "\(spent) on vice"], width: width, ellipsis: frame.glyphs.ellipsis),
            x: x, y: inner.y + 3, style: Style(.muted), maxWidth: width)
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
        let fits = CellWidth.of(label) + 1 + CellWidth.of(value) <= width
        let labelWidth = fits ? frame.put(label + " ", x: x, y: y, style: Style(.muted), maxWidth: width) : 0
        frame.put(value, x: x + labelWidth, y: y, style: style, maxWidth: width - labelWidth)
    }

    private func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }
}

/// The top line: who, which group, the local time and the countdown to the daily reset.
struct HeaderView {
    let data: DashboardData

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    func draw(into frame: inout Frame, in rect: Rect) {
        let style = Style(.header)
        frame.fill(rect, style: style)
        let dot = frame.glyphs.bullet
        let group =
            data.group.map { "\($0.code) \(dot) \($0.memberCount) member\($0.memberCount == 1 ? "" : "s")" }
            ?? "no group"
        let calendar = data.calendar
        let (hour, minute) = calendar.hourAndMinute(of: data.now)
        let clock = TimeFormat.clock(hour: hour, minute: minute)
        let wallDay = DayCalendar(timeZone: calendar.timeZone).day(containing: data.now)
        let date = "\(Self.weekdays[wallDay.isoWeekday - 1]) \(wallDay.day) \(Self.months[wallDay.month - 1])"
        let countdown = "resets in " + TimeFormat.countdown(seconds: data.today.nextReset.timeIntervalSince(data.now))
        let speed = data.clockSpeed == 1 ? "" : " \(dot) \(frame.glyphs.times)\(Self.speedText(data.clockSpeed))"
        // Drop the least useful parts first when the line is narrow.
        let candidates = [
            "\(date) \(clock)\(speed) \(dot) \(countdown) ", "\(clock)\(speed) \(dot) \(countdown) ", "\(clock) ",
        ]
        var x = rect.x
        x += frame.put(" ScreenMates ", x: x, y: rect.y, style: style.bolded())
        let who = " \(data.userName) \(dot) \(group)"
        for right in candidates {
            let rightWidth = CellWidth.of(right)
            if rightWidth + CellWidth.of(who) + x <= rect.maxX || right == candidates.last {
                let whoWidth = max(0, rect.maxX - x - rightWidth - 1)
                frame.put(
                    SafeText.truncated(who, toCells: whoWidth, ellipsis: frame.glyphs.ellipsis),
                    x: x, y: rect.y, style: style, maxWidth: whoWidth)
                frame.put(right, x: max(x, rect.maxX - rightWidth), y: rect.y, style: style)
                break
            }
        }
    }

    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? String(Int(speed)) : String(format: "%.1f", speed)
    }
}

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
