import Foundation
import ScreenMatesCore

/// The top line: who, which group (and the coin balance, where the application gives it), the
/// local time and the countdown to the daily reset.
///
/// The name, the group's code (the thing to share), the clock time and "resets in …" are always
/// shown, at every width the dashboard draws in. Where the line is narrow the other parts give
/// way whole, in this order: the brand, the date, the group's size, the speed marker; only then
/// is the name shortened (with an ellipsis).
///
/// Which parts fit is decided on the widest the changing texts can be (a two-digit day, a
/// countdown of 24h 59m), not on what they say now, so the name and the group never move or
/// change as the clock ticks on: only the right-hand text changes.
struct HeaderView {
    let data: DashboardContent

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let brand = " ScreenMates "
    /// The widest date (`Wed 18 Mar `) and countdown (a 25-hour day, on the day clocks go
    /// back) there are; the right-hand part is given room for these.
    static let widestDate = "Wed 28 Sep "
    static let widestCountdown = "24h 59m"

    /// Which of the parts that may give way the line holds.
    struct Layout: Hashable {
        var brand: Bool
        var date: Bool
        var groupSize: Bool
        var speed: Bool
    }

    /// Fullest first; each leaves out one more part.
    static let layouts = [
        Layout(brand: true, date: true, groupSize: true, speed: true),
        Layout(brand: false, date: true, groupSize: true, speed: true),
        Layout(brand: false, date: false, groupSize: true, speed: true),
        Layout(brand: false, date: false, groupSize: false, speed: true),
        Layout(brand: false, date: false, groupSize: false, speed: false),
    ]

    func draw(into frame: inout Frame, in rect: Rect) {
        let style = Style(.header)
        frame.fill(rect, style: style)
        guard !rect.isEmpty else { return }
        let glyphs = frame.glyphs
        let chosen = layout(width: rect.width, glyphs: glyphs)
        var x = rect.x
        if chosen.brand { x += frame.put(Self.brand, x: x, y: rect.y, style: style.bolded()) }
        // The room left of the right-hand part at its widest, less one blank cell.
        let whoWidth = max(0, rect.maxX - rightText(chosen, glyphs: glyphs, widest: true).cells - 1 - x)
        let whoEnd = x + whoWidth
        for (text, bold) in who(chosen, toCells: whoWidth, glyphs: glyphs) {
            x += frame.put(text, x: x, y: rect.y, style: bold ? style.bolded() : style, maxWidth: max(0, whoEnd - x))
        }
        let right = rightText(chosen, glyphs: glyphs, widest: false)
        frame.put(right.text, x: max(rect.x, rect.maxX - right.cells), y: rect.y, style: style, maxWidth: rect.width)
    }

    /// The fullest layout whose parts fit `width` cells with the name whole; the barest one
    /// (the name then shortened) where none does.
    func layout(width: Int, glyphs: Glyphs) -> Layout {
        Self.layouts.first { layout in
            let who = who(layout, toCells: .max, glyphs: glyphs).reduce(0) { $0 + CellWidth.of($1.text) }
            let brand = layout.brand ? CellWidth.of(Self.brand) : 0
            return brand + who + 1 + rightText(layout, glyphs: glyphs, widest: true).cells <= width
        } ?? Self.layouts.last!
    }

    /// The name and the group, as pieces (the code bold), cut to `cells`: the name gives way,
    /// never the code.
    func who(_ layout: Layout, toCells cells: Int, glyphs: Glyphs) -> [(text: String, bold: Bool)] {
        let separator = " \(glyphs.bullet) "
        var group: [(text: String, bold: Bool)]
        if let summary = data.group {
            group = [(separator, false), (summary.code, true)]
            if layout.groupSize { group.append((separator + Self.members(summary.memberCount), false)) }
        } else {
            group = [(separator + "no group", false)]
        }
        // The coin balance gives way with the group's size.
        if layout.groupSize, let coins = data.games?.coins { group.append((separator + "\(coins) coins", false)) }
        let name = " " + SafeText.displayable(data.userName)
        let groupWidth = group.reduce(0) { $0 + CellWidth.of($1.text) }
        if CellWidth.of(name) + groupWidth <= cells { return [(name, false)] + group }
        // Too narrow for the whole name: it is shortened; only a line too narrow for the group's
        // code and two cells of the name (never one the dashboard draws) cuts the code too.
        let nameCells = max(2, cells - groupWidth)
        return [(SafeText.truncated(name, toCells: nameCells, ellipsis: glyphs.ellipsis), false)] + group
    }

    static func members(_ count: Int) -> String { "\(count) member\(count == 1 ? "" : "s")" }

    /// The date, the time, the speed and the countdown (as `layout` holds them), ending one blank
    /// cell before the edge; `widest` gives the text at its widest, for the layout.
    func rightText(_ layout: Layout, glyphs: Glyphs, widest: Bool) -> (text: String, cells: Int) {
        let dot = glyphs.bullet
        let calendar = data.calendar
        let (hour, minute) = calendar.hourAndMinute(of: data.now)
        let clock = TimeFormat.clock(hour: hour, minute: minute)
        let wallDay = DayCalendar(timeZone: calendar.timeZone).day(containing: data.now)
        var date = "\(Self.weekdays[wallDay.isoWeekday - 1]) \(wallDay.day) \(Self.months[wallDay.month - 1]) "
        var countdown = TimeFormat.countdown(seconds: data.today.nextReset.timeIntervalSince(data.now))
        if widest {
            if CellWidth.of(date) < CellWidth.of(Self.widestDate) { date = Self.widestDate }
            if CellWidth.of(countdown) < CellWidth.of(Self.widestCountdown) { countdown = Self.widestCountdown }
        }
        let speed =
            data.clockSpeed == 1 || !layout.speed ? "" : "\(dot) \(glyphs.times)\(Self.speedText(data.clockSpeed)) "
        let text = "\(layout.date ? date : "")\(clock) \(speed)\(dot) resets in \(countdown) "
        return (text, CellWidth.of(text))
    }

    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? String(Int(speed)) : String(format: "%.1f", speed)
    }
}
