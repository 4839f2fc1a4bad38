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
    let toast: DashboardContent.Toast

    static let maximumWidth = 52

    func draw(into frame: inout Frame) {
        let width = min(Self.maximumWidth, frame.width - 4)
        guard width >= 20 else { return }
        let notice = toast.notice
        let mark = notice.severity.mark(frame.glyphs) + " "
        // The title (after its mark) and the text wrap rather than being cut: up to two and
        // three lines, which a 16-row screen still has room for below the panels.
        let wrappedTitle = WordWrap.lines(
            SafeText.displayable(notice.title), width: width - 4 - CellWidth.of(mark), limit: 2,
            ellipsis: frame.glyphs.ellipsis)
        let titleLines = wrappedTitle.isEmpty ? [""] : wrappedTitle
        let bodyLines = WordWrap.lines(
            SafeText.displayable(notice.body), width: width - 4, limit: 3, ellipsis: frame.glyphs.ellipsis)
        let height = 2 + titleLines.count + bodyLines.count
        // Below the header and the panels: the leaderboard's first rows stay readable on the left.
        let y = 1 + DashboardLayout.panelHeight + 1
        guard y + height < frame.height else { return }
        let rect = Rect(x: frame.width - width - 2, y: y, width: width, height: height)
        let role = toast.fading ? ColorRole.muted : notice.severity.role
        frame.fill(rect)
        frame.box(rect, style: Style(role, bold: !toast.fading))
        let inner = rect.inner
        var row = inner.y
        for (index, line) in titleLines.enumerated() {
            let text = (index == 0 ? mark : String(repeating: " ", count: CellWidth.of(mark))) + line
            frame.put(text, x: inner.x + 1, y: row, style: Style(role, bold: true), maxWidth: inner.width - 2)
            row += 1
        }
        for line in bodyLines {
            frame.put(
                line, x: inner.x + 1, y: row, style: Style(toast.fading ? .muted : .text), maxWidth: inner.width - 2)
            row += 1
        }
    }
}

/// One notice on a line: time, title and as much of the text as fits.
struct NoticeRow {
    let line: DashboardContent.NoticeLine
    let calendar: DayCalendar
    let now: Date

    /// The time of a notice of today (`14:05`), with its day for an older one (`17 Mar 22:00`).
    static func when(_ at: Date, calendar: DayCalendar, now: Date) -> String {
        let day = calendar.day(containing: at)
        let (hour, minute) = calendar.hourAndMinute(of: at)
        let time = TimeFormat.clock(hour: hour, minute: minute)
        return day == calendar.day(containing: now) ? time : "\(monthDay(day)) \(time)"
    }

    func draw(into frame: inout Frame, x: Int, y: Int, width: Int) {
        let when = Self.when(line.at, calendar: calendar, now: now)
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
///
/// A notice takes one line where its time, title and text fit on it; otherwise its text goes
/// on under its title, so every notice reads whole at any width.
struct NoticesView {
    let model: ScreensModel

    /// One row of the log: pieces of text and their styles, from the left.
    typealias Row = [(text: String, style: Style)]

    /// Rows of notices that fit on a screen `height` rows tall.
    static func window(height: Int) -> Int { max(1, height - 3) }

    /// Every row of the log, `width` cells wide.
    static func rows(_ model: ScreensModel, width: Int) -> [Row] {
        guard let data = model.data else { return [] }
        return data.notices.flatMap { rows(of: $0, calendar: data.calendar, now: data.now, width: width) }
    }

    static func rows(of line: DashboardContent.NoticeLine, calendar: DayCalendar, now: Date, width: Int) -> [Row] {
        let when = NoticeRow.when(line.at, calendar: calendar, now: now) + " "
        let title = SafeText.displayable(line.title)
        let body = SafeText.displayable(line.body)
        let titleStyle = Style(line.severity.role, bold: true)
        if CellWidth.of(when + title + "  " + body) <= width {
            return [[(when, Style(.muted)), (title, titleStyle), ("  " + body, Style(.text))]]
        }
        let indent = CellWidth.of(when)
        let room = max(1, width - indent)
        let pad = String(repeating: " ", count: indent)
        var rows: [Row] = []
        for (index, piece) in WordWrap.lines(title, width: room).enumerated() {
            rows.append([(index == 0 ? when : pad, Style(.muted)), (piece, titleStyle)])
        }
        for piece in WordWrap.lines(body, width: room) {
            rows.append([(pad, Style(.muted)), (piece, Style(.text))])
        }
        return rows
    }

    /// How far the log scrolls on `model`'s screen, in rows.
    static func maximumScroll(_ model: ScreensModel) -> Int {
        max(0, rows(model, width: max(1, model.width - 4)).count - window(height: model.height))
    }

    func draw(into frame: inout Frame) {
        let screen = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        let (body, footer) = screen.splitBottom(1)
        let notices = model.data?.notices ?? []
        frame.box(
            body,
            title: notices.isEmpty ? "Notices" : "Notices \(frame.glyphs.bullet) \(notices.count), newest first")
        let inner = body.inner
        let width = max(1, inner.width - 2)
        if notices.isEmpty {
            let text =
                "No notices yet. They come at 75 %, 90 % and over the limit, at the daily reset, and from your group."
            for (index, line) in WordWrap.lines(text, width: width).enumerated() where index < inner.height {
                frame.put(line, x: inner.x + 1, y: inner.y + index, style: Style(.muted), maxWidth: width)
            }
        } else {
            let rows = Self.rows(model, width: width)
            let window = min(inner.height, Self.window(height: frame.height))
            let first = max(0, min(model.noticeScroll, rows.count - window))
            let shown = rows.dropFirst(first).prefix(window)
            for (index, row) in shown.enumerated() {
                var x = inner.x + 1
                for piece in row {
                    x += frame.put(
                        piece.text, x: x, y: inner.y + index, style: piece.style,
                        maxWidth: max(0, inner.x + 1 + width - x))
                }
            }
            ScrollMark.draw(into: &frame, box: body, above: first, below: rows.count - first - shown.count)
        }
        FooterView(
            keys: model.keys.footer(for: .notices) + model.keys.all(for: .notices).filter { !$0.inFooter },
            warning: nil, note: nil
        )
        .draw(into: &frame, in: footer)
    }
}
