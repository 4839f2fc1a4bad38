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
            style: Style(.accent, bold: true), maxWidth: inner.width - 1)
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
            maxWidth: inner.width - 1)
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
        var used = frame.put(
            "\(progress.blocksUsed)", x: x, y: inner.y, style: Style(state.role, bold: true), maxWidth: width)
        used += frame.put(
            " / \(progress.goal) blocks", x: x + used, y: inner.y, style: Style(.text), maxWidth: width - used)
        frame.put(
            "  \(progress.percent)%", x: x + used, y: inner.y, style: Style(state.role, bold: true),
            maxWidth: width - used)
        let (filled, empty) = ProgressBar.pieces(fraction: progress.fraction, width: width, glyphs: frame.glyphs)
        let filledWidth = frame.put(filled, x: x, y: inner.y + 1, style: Style(state.role), maxWidth: width)
        frame.put(empty, x: x + filledWidth, y: inner.y + 1, style: Style(.barEmpty), maxWidth: width - filledWidth)
        let detail: String
        if progress.blocksOver > 0 {
            detail = "\(state.phrase) by \(progress.blocksOver)"
        } else if progress.blocksLeft == 0 {
            detail = "at the limit \(frame.glyphs.bullet) 0 left"
        } else {
            detail = "\(state.phrase) \(frame.glyphs.bullet) \(progress.blocksLeft) left"
        }
        frame.put(detail, x: x, y: inner.y + 2, style: Style(state.role), maxWidth: width)
        frame.put(
            "\(TimeFormat.duration(seconds: data.today.ledger.spentSeconds)) on vice apps", x: x, y: inner.y + 3,
            style: Style(.muted), maxWidth: width)
    }

    private func labelled(
        _ frame: inout Frame, _ inner: Rect, _ y: Int, _ label: String, _ value: String, _ style: Style
    ) {
        let x = inner.x + 1
        let width = inner.width - 1
        let labelWidth = frame.put(label + " ", x: x, y: y, style: Style(.muted), maxWidth: width)
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
        let speed = data.clockSpeed == 1 ? "" : " \(dot) ×\(Self.speedText(data.clockSpeed))"
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
                frame.put(who, x: x, y: rect.y, style: style, maxWidth: max(0, rect.maxX - x - rightWidth - 1))
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
        let limit = rect.maxX - messageWidth
        for (binding, (hx, width)) in zip(keys, hints) where hx + width - 2 <= limit {
            let used = frame.put(binding.label, x: hx, y: rect.y, style: Style(.key, bold: true))
            frame.put(" " + binding.summary, x: hx + used, y: rect.y, style: Style(.muted))
        }
        if let warning {
            frame.put(
                warning, x: rect.maxX - messageWidth, y: rect.y, style: Style(.error, bold: true),
                maxWidth: messageWidth)
        } else if let note {
            frame.put(note, x: rect.maxX - messageWidth, y: rect.y, style: Style(.muted), maxWidth: messageWidth - 1)
        }
    }
}
