import Foundation
import ScreenMatesCore

/// The top line: who, which group, the local time and the countdown to the daily reset.
///
/// The clock time and "resets in …" are always shown, at every width the dashboard draws in.
/// When the line is narrow the name and group are shortened first (with an ellipsis); the
/// weekday and date, then the speed marker, are dropped only when even a short name does not
/// fit beside them.
struct HeaderView {
    let data: DashboardData

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let brand = " ScreenMates "
    /// A name cut shorter than this many cells (leading space and ellipsis included) no longer
    /// says who it is, so the date and the speed marker give way first.
    static let shortestName = 8

    func draw(into frame: inout Frame, in rect: Rect) {
        let style = Style(.header)
        frame.fill(rect, style: style)
        guard !rect.isEmpty else { return }
        let right = rightCandidates(glyphs: frame.glyphs)
        let name = " " + SafeText.displayable(data.userName)
        let who = name + " \(frame.glyphs.bullet) " + SafeText.displayable(groupText(glyphs: frame.glyphs))
        let shortest = min(CellWidth.of(name), Self.shortestName)
        // The brand gives way only on a line too narrow for even the clock and the countdown.
        let brandWidth =
            CellWidth.of(Self.brand) + CellWidth.of(right.last!) <= rect.width ? CellWidth.of(Self.brand) : 0
        // The first (fullest) right part that leaves room for a short name and one blank cell.
        let chosen = right.first { brandWidth + shortest + 1 + CellWidth.of($0) <= rect.width } ?? right.last!
        let rightWidth = CellWidth.of(chosen)
        if brandWidth > 0 { frame.put(Self.brand, x: rect.x, y: rect.y, style: style.bolded()) }
        let whoX = rect.x + brandWidth
        let whoWidth = max(0, rect.maxX - rightWidth - 1 - whoX)
        frame.put(
            Self.shortened(who, name: name, toCells: whoWidth, glyphs: frame.glyphs), x: whoX, y: rect.y,
            style: style, maxWidth: whoWidth)
        frame.put(chosen, x: max(rect.x, rect.maxX - rightWidth), y: rect.y, style: style, maxWidth: rect.width)
    }

    /// The right-hand part, fullest first; every one holds the clock and the countdown.
    func rightCandidates(glyphs: Glyphs) -> [String] {
        let dot = glyphs.bullet
        let calendar = data.calendar
        let (hour, minute) = calendar.hourAndMinute(of: data.now)
        let clock = TimeFormat.clock(hour: hour, minute: minute)
        let wallDay = DayCalendar(timeZone: calendar.timeZone).day(containing: data.now)
        let date = "\(Self.weekdays[wallDay.isoWeekday - 1]) \(wallDay.day) \(Self.months[wallDay.month - 1]) "
        let countdown =
            "\(dot) resets in " + TimeFormat.countdown(seconds: data.today.nextReset.timeIntervalSince(data.now))
        let speed = data.clockSpeed == 1 ? "" : "\(dot) \(glyphs.times)\(Self.speedText(data.clockSpeed)) "
        return ["\(date)\(clock) \(speed)\(countdown) ", "\(clock) \(speed)\(countdown) ", "\(clock) \(countdown) "]
    }

    func groupText(glyphs: Glyphs) -> String {
        guard let group = data.group else { return "no group" }
        return "\(group.code) \(glyphs.bullet) \(group.memberCount) member\(group.memberCount == 1 ? "" : "s")"
    }

    /// `who` (the name, then the group) cut to `cells`: the group is cut first, then left out,
    /// then the name is cut. A cut group keeps at least its separator and the ellipsis
    /// (`ana · …`), so the ellipsis never reads as part of the name.
    static func shortened(_ who: String, name: String, toCells cells: Int, glyphs: Glyphs) -> String {
        if CellWidth.of(who) <= cells { return who }
        let ellipsis = glyphs.ellipsis
        let separator = " \(glyphs.bullet) "
        let nameWidth = CellWidth.of(name)
        if cells >= nameWidth + CellWidth.of(separator) + CellWidth.of(ellipsis) {
            var kept = SafeText.truncated(who, toCells: cells - CellWidth.of(ellipsis), ellipsis: "")
            while kept.last == " " { kept.removeLast() }
            return kept == name + separator.dropLast() ? name + separator + ellipsis : kept + ellipsis
        }
        if cells >= nameWidth { return name }
        return SafeText.truncated(name, toCells: cells, ellipsis: ellipsis)
    }

    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? String(Int(speed)) : String(format: "%.1f", speed)
    }
}
