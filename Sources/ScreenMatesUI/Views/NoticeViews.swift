import Foundation
import ScreenMatesCore

extension Notice.Severity {
    /// The colour a notice of this kind is drawn in.
    var role: ColorRole {
        switch self {
        case .info: .accent
        case .warning: .warning
        case .alarm: .over
        }
    }

    /// The mark before a notice's title.
    func mark(_ glyphs: Glyphs) -> String {
        switch self {
        case .info: glyphs.bullet
        case .warning, .alarm: "!"
        }
    }
}

/// A notice shown for a few seconds over the lower right of the dashboard, below the panels, so
/// it never hides the numbers it talks about. Fading, it is drawn in muted colours.
struct ToastView {
    let toast: DashboardData.Toast

    static let maximumWidth = 52

    func draw(into frame: inout Frame) {
        let width = min(Self.maximumWidth, frame.width - 4)
        guard width >= 20 else { return }
        let notice = toast.notice
        let bodyLines = WordWrap.lines(
            SafeText.displayable(notice.body), width: width - 4, limit: 2, ellipsis: frame.glyphs.ellipsis)
        let height = 3 + bodyLines.count
        // Below the header and the panels: the leaderboard's first rows stay readable on the left.
        let y = 1 + DashboardLayout.panelHeight + 1
        guard y + height < frame.height else { return }
        let rect = Rect(x: frame.width - width - 2, y: y, width: width, height: height)
        let role = toast.fading ? ColorRole.muted : notice.severity.role
        frame.fill(rect)
        frame.box(rect, style: Style(role, bold: !toast.fading))
        let inner = rect.inner
        let title = "\(notice.severity.mark(frame.glyphs)) \(SafeText.displayable(notice.title))"
        frame.put(title, x: inner.x + 1, y: inner.y, style: Style(role, bold: true), maxWidth: inner.width - 2)
        for (index, line) in bodyLines.enumerated() {
            frame.put(
                line, x: inner.x + 1, y: inner.y + 1 + index, style: Style(toast.fading ? .muted : .text),
                maxWidth: inner.width - 2)
        }
    }
}

/// One notice on a line: time, title and as much of the text as fits.
struct NoticeRow {
    let line: DashboardData.NoticeLine
    let calendar: DayCalendar
    let now: Date

    func draw(into frame: inout Frame, x: Int, y: Int, width: Int) {
        let sameDay = calendar.day(containing: line.at) == calendar.day(containing: now)
        let (hour, minute) = calendar.hourAndMinute(of: line.at)
        let time = TimeFormat.clock(hour: hour, minute: minute)
        let day = calendar.day(containing: line.at)
        let when = sameDay ? time : "\(Self.monthDay(day)) \(time)"
        var used = frame.put(when + " ", x: x, y: y, style: Style(.muted), maxWidth: width)
        used += frame.put(
            SafeText.displayable(line.title), x: x + used, y: y, style: Style(line.severity.role, bold: true),
            maxWidth: width - used)
        let rest = "  " + SafeText.displayable(line.body)
        frame.put(
            SafeText.truncated(rest, toCells: max(0, width - used), ellipsis: frame.glyphs.ellipsis), x: x + used,
            y: y, style: Style(.text), maxWidth: width - used)
    }

    static func monthDay(_ day: LocalDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(day.day) \(months[max(0, min(11, day.month - 1))])"
    }
}

/// The log of notices (`n`): every notice shown, newest first, scrollable.
struct NoticesView {
    let model: DashboardModel

    /// Notice rows that fit on a screen `height` rows tall.
    static func rows(height: Int) -> Int { max(1, height - 4) }

    func draw(into frame: inout Frame) {
        let screen = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        let (body, footer) = screen.splitBottom(1)
        let notices = model.data?.notices ?? []
        frame.box(body, title: notices.isEmpty ? "Notices" : "Notices · \(notices.count), newest first")
        let inner = body.inner
        if notices.isEmpty {
            frame.put(
                "No notices yet. They come at 75 %, 90 % and over the limit, at the daily reset, and from your group.",
                x: inner.x + 1, y: inner.y, style: Style(.muted), maxWidth: inner.width - 2)
        } else if let data = model.data {
            let visible = notices.dropFirst(model.noticeScroll).prefix(Self.rows(height: frame.height))
            for (index, line) in visible.enumerated() {
                NoticeRow(line: line, calendar: data.calendar, now: data.now)
                    .draw(into: &frame, x: inner.x + 1, y: inner.y + index, width: inner.width - 2)
            }
        }
        FooterView(
            keys: model.keys.footer(for: .notices) + model.keys.all(for: .notices).filter { !$0.inFooter },
            warning: nil, note: nil
        )
        .draw(into: &frame, in: footer)
    }
}
