import Foundation
import ScreenMatesCore

/// The profile screen: the coin balance, the badges by category (earned ones with their day,
/// the others with what earns them) and, where the terminal is wide, the latest coin entries.
struct ProfileView {
    let model: ScreensModel

    static let hints = [KeyHint("↑/↓", "scroll", short: "scroll"), KeyHint("esc", "back"), KeyHint("q", "quit")]

    func draw(into frame: inout Frame) {
        let body = GameScreenFrame.draw(model, into: &frame, hints: Self.hints)
        guard let data = model.data, let games = data.games else {
            frame.box(body, title: "Profile")
            frame.put("Loading…", x: body.x + 3, y: body.y + 2, style: Style(.muted), maxWidth: body.width - 6)
            return
        }
        let wide = body.width >= 100
        let columns = wide ? body.columns([body.width * 3 / 5, body.width - body.width * 3 / 5]) : [body]
        let earned = games.badges.count
        frame.box(
            columns[0],
            title: "\(SafeText.displayable(data.userName)) \(frame.glyphs.bullet) \(games.coins) coins "
                + "\(frame.glyphs.bullet) \(earned) of \(BadgeKind.allCases.count) badges")
        GameLine.draw(
            badgeLines(games, glyphs: frame.glyphs), into: &frame, box: columns[0], scroll: model.games.profileScroll)
        if wide { drawLedger(&frame, games, in: columns[1], calendar: data.calendar) }
    }

    func badgeLines(_ games: GamesData, glyphs: Glyphs) -> [GameLine] {
        var lines: [GameLine] = []
        for category in BadgeKind.Category.allCases {
            if !lines.isEmpty { lines.append(.blank) }
            lines.append(GameLine(category.rawValue.capitalized, Style(.title, bold: true)))
            for kind in BadgeKind.allCases where kind.category == category {
                let difficulty = " (\(kind.difficulty.rawValue))"
                if let day = games.badges[kind] {
                    lines.append(
                        GameLine([
                            (glyphs.check + " ", Style(.good, bold: true)), (day.iso8601 + "  ", Style(.muted)),
                            (kind.title, Style(.text, bold: true)), (difficulty, Style(.muted)),
                        ]))
                } else {
                    lines.append(
                        GameLine([
                            ("  " + String(repeating: " ", count: 12), .plain), (kind.title, Style(.muted)),
                            (difficulty + ": " + kind.detail, Style(.muted)),
                        ]))
                }
            }
        }
        return lines
    }

    private func drawLedger(_ frame: inout Frame, _ games: GamesData, in rect: Rect, calendar: DayCalendar) {
        frame.box(rect, title: "Coins")
        let inner = rect.inner
        guard inner.height > 0 else { return }
        if games.ledger.isEmpty {
            frame.put(
                "No coins yet: keep a challenge, earn a badge, or a week.", x: inner.x + 1, y: inner.y,
                style: Style(.muted), maxWidth: inner.width - 2)
        }
        for (row, line) in games.ledger.prefix(inner.height).enumerated() {
            let day = calendar.day(containing: line.at)
            let amount = GameLine.signed(line.amount).padding(toLength: 6, withPad: " ", startingAt: 0)
            var x = inner.x + 1
            let date = "\(HeaderView.months[day.month - 1]) \(day.day)".padding(
                toLength: 7, withPad: " ", startingAt: 0)
            x += frame.put(date, x: x, y: inner.y + row, style: Style(.muted))
            x += frame.put(
                amount, x: x, y: inner.y + row, style: Style(line.amount < 0 ? .over : .good, bold: true))
            frame.put(
                SafeText.truncated(line.reason, toCells: max(0, inner.maxX - 1 - x), ellipsis: frame.glyphs.ellipsis),
                x: x, y: inner.y + row, style: Style(.text), maxWidth: max(0, inner.maxX - 1 - x))
        }
    }
}
