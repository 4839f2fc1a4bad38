import ScreenMatesCore

/// The settings screen (`s`): the app lists, the notification switches, the theme and the
/// numbers behind the day, one setting a row, the selected one marked with a pointer and reverse
/// video. A list longer than the screen scrolls to keep the selected row in view.
struct SettingsView {
    let model: ScreensModel

    /// Cells of the label column: two more than the longest label, four where there is room.
    static func labelWidth(screenWidth: Int) -> Int { screenWidth >= 70 ? 18 : 16 }

    /// One line of the list: a section title, or a setting (with its index in the rows).
    struct Line {
        var row: Int?
        var label: String
        var value: String
        /// What the value means, fullest wording first: the first that fits is shown.
        var note: [String]
        var valueStyle: Style
    }

    func draw(into frame: inout Frame) {
        let (headerRow, belowHeader) = frame.bounds.splitTop(1)
        let (body, footer) = belowHeader.splitBottom(1)
        if let data = model.data { HeaderView(data: data).draw(into: &frame, in: headerRow) }
        guard let state = model.settingsScreen else {
            frame.box(body, title: "Settings")
            return
        }
        let hints: [KeyHint] =
            state.adding != nil
            ? [KeyHint("enter", "add"), KeyHint("esc", "cancel")]
            : model.keys.footer(for: .settings).map(KeyHint.init)
        FooterView(hints: hints, warning: model.data?.warning).draw(into: &frame, in: footer)
        frame.box(body, title: "Settings")
        let inner = body.inner
        // Two rows at the bottom: what the arrows do, and a message or the name being typed.
        let listHeight = max(0, inner.height - 3)
        let lines = Self.lines(state, glyphs: frame.glyphs)
        let selectedLine = lines.firstIndex { $0.row == state.selection } ?? 0
        let first = max(0, min(selectedLine - listHeight / 2, lines.count - listHeight))
        let x = inner.x + 1
        let width = inner.width - 2
        for (offset, line) in lines.dropFirst(first).prefix(listHeight).enumerated() {
            let y = inner.y + offset
            guard let row = line.row else {
                frame.put(line.label, x: x, y: y, style: Style(.title, bold: true), maxWidth: width)
                continue
            }
            let selected = row == state.selection
            if selected { frame.put(frame.glyphs.pointer, x: x, y: y, style: Style(.accent, bold: true)) }
            let labelWidth = Self.labelWidth(screenWidth: frame.width)
            frame.put(line.label, x: x + 2, y: y, style: Style(.muted), maxWidth: labelWidth - 1)
            var valueStyle = line.valueStyle
            if selected && state.adding == nil { valueStyle.reverse = true }
            let valueX = x + 2 + labelWidth
            let room = max(0, inner.maxX - 1 - valueX)
            // A value too long for its row (an app's long name) ends in an ellipsis, never cut bare.
            let used = frame.put(
                SafeText.truncated(line.value, toCells: room, ellipsis: frame.glyphs.ellipsis), x: valueX, y: y,
                style: valueStyle, maxWidth: room)
            if !line.note.isEmpty {
                let noteRoom = room - used - 2
                if let note = line.note.first(where: { CellWidth.of($0) <= noteRoom }) {
                    frame.put("  " + note, x: valueX + used, y: y, style: Style(.muted), maxWidth: noteRoom + 2)
                }
            }
        }
        if first > 0 {
            frame.put(frame.glyphs.arrowUp, x: inner.maxX - 2, y: inner.y, style: Style(.muted))
        }
        if first + listHeight < lines.count, listHeight > 0 {
            frame.put(frame.glyphs.arrowDown, x: inner.maxX - 2, y: inner.y + listHeight - 1, style: Style(.muted))
        }
        let help = DashboardView.fitting(
            [
                "\(frame.glyphs.arrowLeft)/\(frame.glyphs.arrowRight) change numbers and the theme; enter flips a switch; "
                    + "saved at once, also in config.toml",
                "\(frame.glyphs.arrowLeft)/\(frame.glyphs.arrowRight) change numbers and theme; enter flips a switch; "
                    + "saved at once",
                "\(frame.glyphs.arrowLeft)/\(frame.glyphs.arrowRight) change; enter flips; saved at once",
            ], width: width, ellipsis: frame.glyphs.ellipsis)
        frame.put(help, x: x, y: inner.maxY - 2, style: Style(.muted), maxWidth: width)
        if let category = state.adding {
            let prompt = "New \(category.rawValue) app: "
            let used = frame.put(prompt, x: x, y: inner.maxY - 1, style: Style(.text, bold: true), maxWidth: width)
            let typed = frame.put(
                SafeText.displayable(state.nameInput.text), x: x + used, y: inner.maxY - 1, style: Style(.accent),
                maxWidth: max(0, width - used - 1))
            frame.put(frame.glyphs.cursor, x: x + used + typed, y: inner.maxY - 1, style: Style(.accent))
        } else if let message = state.message {
            frame.put(
                SafeText.displayable(message), x: x, y: inner.maxY - 1,
                style: Style(state.messageIsError ? .error : .good, bold: state.messageIsError), maxWidth: width)
        }
    }

    /// Every line of the list, section titles included.
    static func lines(_ state: SettingsScreenState, glyphs: Glyphs) -> [Line] {
        let settings = state.settings
        var lines: [Line] = []
        var lastCategory: AppCategory?
        func add(_ label: String, _ value: String, note: [String] = [], style: Style = Style(.text), row: Int) {
            lines.append(Line(row: row, label: label, value: value, note: note, valueStyle: style))
        }
        func section(_ title: String) {
            lines.append(Line(row: nil, label: title, value: "", note: [], valueStyle: .plain))
        }
        func onOff(_ on: Bool) -> String { on ? "on" : "off" }
        section("Apps")
        for (index, row) in state.rows.enumerated() {
            switch row {
            case .app(let id, let category):
                let app = settings.apps.first { $0.id == id }
                let label = lastCategory == category ? "" : category == .vice ? "vice" : "productive"
                lastCategory = category
                add(
                    label, SafeText.displayable(app?.name ?? id),
                    note: app?.hidden == true
                        ? ["hidden: never named outside this machine", "hidden: never shared", "hidden"] : [],
                    row: index)
            case .addApp(let category):
                let label = lastCategory == category ? "" : category == .vice ? "vice" : "productive"
                lastCategory = category
                add(label, "+ add a \(category.rawValue) app", style: Style(.muted), row: index)
            case .seenApp(let name):
                let time = TimeFormat.duration(seconds: state.seen.first { $0.name == name }?.seconds ?? 0)
                let label = lastCategory == nil ? "" : "seen"
                lastCategory = nil
                add(
                    label, SafeText.displayable(name),
                    note: ["\(time) · ← vice  → productive", "\(time) · ← vice → prod.", time], style: Style(.muted),
                    row: index)
            case .notifications:
                section("Notifications")
                add("notifications", onOff(settings.notificationsEnabled), row: index)
            case .notificationBell:
                add(
                    "terminal bell", onOff(settings.notificationBell),
                    note: settings.notificationsEnabled ? [] : ["(notifications are off)", "(all off)"], row: index)
            case .notificationDesktop:
                add(
                    "desktop", onOff(settings.notificationDesktop),
                    note: settings.notificationsEnabled ? [] : ["(notifications are off)", "(all off)"], row: index)
            case .theme:
                section("Look and day")
                add("theme", settings.theme.rawValue, row: index)
            case .dayStartHour:
                add(
                    "day starts at", TimeFormat.clock(hour: settings.dayStartHour, minute: 0),
                    note: settings.dayStartHour == 0 ? ["midnight"] : [], row: index)
            case .dailyGoal:
                let goal = settings.rules.dailyGoalBlocks
                add(
                    "own daily goal", "\(goal) \(goal == 1 ? "block" : "blocks")",
                    note: settings.group.map {
                        [
                            "the group's goal of \($0.dailyGoalBlocks) applies",
                            "group's goal of \($0.dailyGoalBlocks) applies", "group: \($0.dailyGoalBlocks)",
                        ]
                    } ?? [], row: index)
            case .blockMinutes:
                add("block length", "\(settings.rules.blockMinutes) min", row: index)
            case .exchangeRate:
                let rate = settings.rules.exchangeRate
                add(
                    "exchange rate", ConfigFile.value(rate) + glyphs.times,
                    note: ["balance earned per productive minute", "earned per productive minute", "per minute"],
                    row: index)
            }
        }
        return lines
    }
}
