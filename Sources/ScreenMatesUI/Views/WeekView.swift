import ScreenMatesCore

/// The week screen: how the group settles its weeks, the week in progress (with a reminder when
/// days of this member's have not reached the group store), and each member's result for the
/// weeks settled, newest first.
struct WeekView {
    let model: ScreensModel

    static let hints = [KeyHint("↑/↓", "scroll", short: "scroll"), KeyHint("esc", "back"), KeyHint("q", "quit")]

    func draw(into frame: inout Frame) {
        let body = GameScreenFrame.draw(model, into: &frame, hints: Self.hints)
        guard let games = model.data?.games else {
            frame.box(body, title: "Weeks")
            frame.put("Loading…", x: body.x + 3, y: body.y + 2, style: Style(.muted), maxWidth: body.width - 6)
            return
        }
        guard let week = games.week else {
            frame.box(body, title: "Weeks")
            frame.put(
                "Weeks are settled for a group's members: create or join a group (g).", x: body.x + 2, y: body.y + 1,
                style: Style(.muted), maxWidth: body.width - 4)
            return
        }
        frame.box(body, title: "Weeks \(frame.glyphs.bullet) from \(week.rules.weekStartName.capitalized)")
        GameLine.draw(
            lines(week, glyphs: frame.glyphs, width: body.width - 4), into: &frame, box: body,
            scroll: model.games.weekScroll)
    }

    func lines(_ week: GamesData.WeekData, glyphs: Glyphs, width: Int) -> [GameLine] {
        let dot = " \(glyphs.bullet) "
        func rates(_ rules: SettlementRules) -> [(String, Style)] {
            [
                ("a kept day ", Style(.muted)), ("+\(rules.keptDayCoins)", Style(.good, bold: true)),
                (dot + "a day over ", Style(.muted)), ("-\(rules.overDayCoins)", Style(.over, bold: true)),
                (
                    dot
                        + (rules.missingDays == .pending
                            ? "days not sent: the week waits for them" : "days not sent: charged as over"),
                    Style(.muted)
                ),
            ]
        }
        var lines = [GameLine(rates(week.rules))]
        if let upcoming = week.upcoming {
            lines.append(
                GameLine([("From \(Self.date(upcoming.from)): ", Style(.warning, bold: true))] + rates(upcoming.rules)))
        }
        lines += [
            GameLine(
                "This week: \(Self.date(week.current)) to \(Self.date(week.current.adding(days: 6))), closes "
                    + Self.date(week.current.adding(days: 7)), Style(.text))
        ]
        if let reminder = week.reminder {
            lines += WordWrap.lines(reminder, width: width).map { GameLine($0, Style(.warning, bold: true)) }
        }
        if week.weeks.isEmpty {
            lines += [.blank, GameLine("No week settled yet.", Style(.muted))]
        }
        for settled in week.weeks {
            lines += [.blank, GameLine("Week of \(Self.date(settled.first))", Style(.title, bold: true))]
            for member in settled.members {
                let name = SafeText.padded(member.name + (member.isMe ? " (you)" : ""), toCells: 22)
                var counts = "\(member.tally.keptDays) kept  \(member.tally.overDays) over"
                if member.tally.missingDays > 0 { counts += "  \(member.tally.missingDays) not sent" }
                let result: (String, Style) =
                    member.status == .pending
                    ? (
                        "waiting for \(member.tally.missingDays) day\(member.tally.missingDays == 1 ? "" : "s")",
                        Style(.muted)
                    )
                    : ("\(GameLine.signed(member.coins)) coins", Style(member.coins < 0 ? .over : .good, bold: true))
                lines.append(
                    GameLine([
                        (name + "  ", Style(member.isMe ? .accent : .text, bold: member.isMe)),
                        (counts.padding(toLength: 28, withPad: " ", startingAt: 0), Style(.text)), result,
                    ]))
            }
        }
        return lines
    }

    /// `Mon 16 Mar`.
    static func date(_ day: LocalDate) -> String {
        "\(HeaderView.weekdays[day.isoWeekday - 1]) \(day.day) \(HeaderView.months[day.month - 1])"
    }
}
