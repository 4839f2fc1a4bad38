import ScreenMatesCore

/// The challenges screen: the user's challenges and the group's open ones (the selected one's
/// span, coins and, for a group challenge, its participants' leaderboard below), the form for a
/// new one, and the question before one is given up.
struct ChallengesView {
    let model: ScreensModel

    static let listHints = [
        KeyHint("↑/↓", "choose", short: "choose"), KeyHint("c", "create"), KeyHint("j", "join"),
        KeyHint("f", "give up", short: "give up"), KeyHint("esc", "back"), KeyHint("q", "quit"),
    ]
    static let formHints = [
        KeyHint("↑/↓", "field"), KeyHint("←/→", "change"), KeyHint("enter", "create"), KeyHint("esc", "cancel"),
    ]
    static let confirmHints = [KeyHint("y", "give up"), KeyHint("n", "keep going", short: "no")]

    func draw(into frame: inout Frame) {
        let state = model.games.challenges
        let hints: [KeyHint] =
            switch state.mode {
            case .list: Self.listHints
            case .create: Self.formHints
            case .confirmForfeit: Self.confirmHints
            }
        let body = GameScreenFrame.draw(
            model, into: &frame, hints: hints, message: state.busy ? "…" : state.message,
            error: state.messageIsError)
        guard let games = model.data?.games else {
            frame.box(body, title: "Challenges")
            frame.put("Loading…", x: body.x + 3, y: body.y + 2, style: Style(.muted), maxWidth: body.width - 6)
            return
        }
        if case .create(let form) = state.mode {
            drawForm(&frame, form, games: games, in: body)
            return
        }
        let rows = games.challenges
        let listHeight = max(4, min(rows.count + 2, body.height / 2))
        let (list, details) = body.splitTop(listHeight)
        drawList(&frame, rows, selected: state.selected, in: list)
        guard let row = state.row(in: rows) else {
            frame.box(details, title: "No challenge yet")
            // Wrapped like the rest: at 80 columns it takes two lines.
            let text =
                "c creates one: a rule over some days, with coins at stake"
                + (games.inGroup ? ", yours or your group's." : ".")
            let lines = WordWrap.lines(
                text, width: max(1, details.width - 4), limit: max(1, details.height - 2),
                ellipsis: frame.glyphs.ellipsis)
            for (index, line) in lines.enumerated() {
                frame.put(
                    line, x: details.x + 2, y: details.y + 1 + index, style: Style(.muted), maxWidth: details.width - 4)
            }
            return
        }
        if case .confirmForfeit(let id) = state.mode, id == row.id {
            drawConfirm(&frame, row, in: details)
        } else {
            drawDetails(&frame, row, in: details)
        }
    }

    // MARK: - The list

    private func drawList(_ frame: inout Frame, _ rows: [GamesData.ChallengeRow], selected: Int, in rect: Rect) {
        frame.box(rect, title: "Challenges")
        let inner = rect.inner
        guard inner.height > 0, !rows.isEmpty else { return }
        let selected = min(selected, rows.count - 1)
        let first = min(max(0, selected - inner.height + 1), max(0, rows.count - inner.height))
        for (offset, row) in rows.dropFirst(first).prefix(inner.height).enumerated() {
            let index = first + offset
            let y = inner.y + offset
            let chosen = index == selected
            let style = Style(chosen ? .highlight : .text, bold: chosen)
            var x = inner.x
            x += frame.put(chosen ? frame.glyphs.pointer + " " : "  ", x: x, y: y, style: Style(.accent, bold: true))
            let idWidth = max(7, row.id.count + 1)
            x += frame.put(row.id.padding(toLength: idWidth, withPad: " ", startingAt: 0), x: x, y: y, style: style)
            let kind = row.isOpenToAll ? "all   " : row.isGroup ? (row.joined ? "group " : "open  ") : "mine  "
            x += frame.put(kind, x: x, y: y, style: Style(row.isGroup ? .accent : .muted))
            // The list's state is short; the details below say it all.
            let state =
                row.canJoin
                ? "open: j joins"
                : row.isGroup && !row.joined ? "closed" : row.state.hasPrefix("running") ? "running" : row.state
            let stateWidth = min(max(14, inner.width / 3), CellWidth.of(state))
            let summaryWidth = max(0, inner.maxX - 1 - x - stateWidth - 2)
            frame.put(
                SafeText.truncated(row.summary, toCells: summaryWidth, ellipsis: frame.glyphs.ellipsis), x: x, y: y,
                style: style, maxWidth: summaryWidth)
            frame.put(
                SafeText.truncated(state, toCells: stateWidth, ellipsis: frame.glyphs.ellipsis),
                x: inner.maxX - 1 - stateWidth, y: y, style: Self.stateStyle(state))
        }
        ScrollMark.draw(into: &frame, box: rect, above: first, below: max(0, rows.count - first - inner.height))
    }

    static func stateStyle(_ state: String) -> Style {
        if state.hasPrefix("kept") { return Style(.good, bold: true) }
        if state.hasPrefix("broken") { return Style(.over, bold: true) }
        if state.hasPrefix("given up") || state.hasPrefix("closed") { return Style(.muted) }
        return Style(.text)
    }

    // MARK: - The selected challenge

    private func drawDetails(_ frame: inout Frame, _ row: GamesData.ChallengeRow, in rect: Rect) {
        frame.box(rect, title: "\(row.id) \(frame.glyphs.bullet) \(row.summary)")
        let inner = rect.inner
        guard inner.height > 0 else { return }
        let dot = " \(frame.glyphs.bullet) "
        let span =
            "\(WeekView.date(row.firstDay)) to \(WeekView.date(row.lastDay))\(dot)keep it +\(row.reward), "
            + "break it or give up -\(row.penalty)"
        frame.put(span, x: inner.x + 1, y: inner.y, style: Style(.muted), maxWidth: inner.width - 2)
        frame.put(
            row.state, x: inner.x + 1, y: inner.y + 1, style: Self.stateStyle(row.state), maxWidth: inner.width - 2)
        guard row.isGroup else {
            if inner.height > 3 {
                frame.put(
                    "Just you: decided from your blocks, the moment the rule breaks or when its last day ends.",
                    x: inner.x + 1, y: inner.y + 3, style: Style(.muted), maxWidth: inner.width - 2)
            }
            return
        }
        let top = inner.y + 3
        let rows = max(0, inner.maxY - top)
        for (offset, participant) in row.participants.prefix(rows).enumerated() {
            let y = top + offset
            var x = inner.x + 1
            x += frame.put(
                String(participant.rank).padding(toLength: 4, withPad: " ", startingAt: 0), x: x, y: y,
                style: Style(.muted))
            let name = SafeText.padded(participant.name + (participant.isMe ? " (you)" : ""), toCells: 22)
            x += frame.put(
                name + "  ", x: x, y: y, style: Style(participant.isMe ? .accent : .text, bold: participant.isMe))
            x += frame.put(
                participant.state.title.padding(toLength: 10, withPad: " ", startingAt: 0), x: x, y: y,
                style: Self.participantStyle(participant.state))
            let total = row.firstDay.days(to: row.lastDay) + 1
            frame.put(
                "\(participant.daysKept)/\(total) day\(total == 1 ? "" : "s") kept", x: x, y: y, style: Style(.muted),
                maxWidth: max(0, inner.maxX - 1 - x))
        }
        if row.participants.count > rows, rows > 0 {
            ScrollMark.draw(into: &frame, box: rect, above: 0, below: row.participants.count - rows)
        }
    }

    static func participantStyle(_ state: ParticipantState) -> Style {
        switch state {
        case .finished: Style(.good, bold: true)
        case .stillIn: Style(.text)
        case .failed: Style(.over, bold: true)
        case .forfeited: Style(.muted)
        }
    }

    private func drawConfirm(_ frame: inout Frame, _ row: GamesData.ChallengeRow, in rect: Rect) {
        frame.box(rect, title: "Give up \(row.id)?", style: Style(.warning), titleStyle: Style(.warning, bold: true))
        let inner = rect.inner
        let lines = [
            ("Give up \(row.summary)?", Style(.text, bold: true)),
            ("It costs up to \(row.penalty) coins (never more than you have), and cannot be undone.", Style(.text)),
            ("y gives it up; any other key keeps going.", Style(.muted)),
        ]
        for (offset, line) in lines.prefix(max(0, inner.height - 1)).enumerated() {
            frame.put(line.0, x: inner.x + 1, y: inner.y + 1 + offset, style: line.1, maxWidth: inner.width - 2)
        }
    }

    // MARK: - The form

    private func drawForm(_ frame: inout Frame, _ form: ChallengeForm, games: GamesData, in rect: Rect) {
        frame.box(rect, title: "New challenge")
        let inner = rect.inner
        let fields = form.fields(inGroup: games.inGroup)
        let labelWidth = 14
        for (offset, field) in fields.prefix(max(0, inner.height - 2)).enumerated() {
            let y = inner.y + 1 + offset
            let chosen = field == form.field
            frame.put(chosen ? frame.glyphs.pointer : " ", x: inner.x + 1, y: y, style: Style(.accent, bold: true))
            frame.put(
                field.rawValue.padding(toLength: labelWidth, withPad: " ", startingAt: 0), x: inner.x + 3, y: y,
                style: Style(chosen ? .text : .muted, bold: chosen))
            let value =
                "\(frame.glyphs.arrowLeft) \(form.value(of: field, apps: games.apps)) \(frame.glyphs.arrowRight)"
            frame.put(
                chosen ? value : form.value(of: field, apps: games.apps), x: inner.x + 3 + labelWidth, y: y,
                style: Style(chosen ? .highlight : .text, bold: chosen),
                maxWidth: max(0, inner.maxX - 4 - labelWidth - inner.x))
        }
        let summary =
            Challenge(
                id: "", rule: form.request.rule, firstDay: LocalDate(dayNumber: 0), days: form.days,
                reward: form.reward, penalty: form.penalty
            ).summary
        let y = inner.y + 2 + fields.count
        if y < inner.maxY {
            frame.put(
                "\(summary), \(form.days) day\(form.days == 1 ? "" : "s"): +\(form.reward) kept, -\(form.penalty) "
                    + "broken or given up" + (form.shared ? ", shared with the group" : ""),
                x: inner.x + 1, y: y, style: Style(.muted), maxWidth: inner.width - 2)
        }
    }
}
