import ScreenMatesCore

/// The first-run setup, one step at a time in a centred box: apps, name, group, and the code to
/// share.
///
/// The app step's box grows with the terminal so that a tall one shows the whole list; the
/// other steps keep one compact size, so the box does not jump between them. The highlighted
/// row carries a pointer as well as reverse video, so it shows without colour too. Hints at the
/// bottom are dropped whole when they do not fit, never cut mid-word.
struct SetupView {
    let flow: SetupFlow

    /// Rows inside the box of every step but the apps one.
    static let compactAreaHeight = 11
    /// Rows of the box around an area: borders, a blank row above the area, and a blank row and
    /// the hints below it.
    static let chrome = 5
    /// The widest the box gets: long enough lines to read, short enough to take in at once.
    static let maximumWidth = 72

    func draw(into frame: inout Frame) {
        let width = min(frame.width - 4, Self.maximumWidth)
        let height = min(frame.height - 2, preferredAreaHeight + Self.chrome)
        let rect = Rect(
            x: (frame.width - width) / 2, y: max(0, (frame.height - height) / 2), width: width, height: height)
        frame.box(rect, title: "Welcome to ScreenMates \(frame.glyphs.bullet) \(stepTitle)")
        let inner = rect.inner
        let area = Rect(x: inner.x + 2, y: inner.y + 1, width: inner.width - 4, height: inner.height - 3)
        switch flow.step {
        case .apps: drawApps(&frame, area)
        case .name: drawName(&frame, area)
        case .group: drawGroup(&frame, area)
        case .joinCode: drawCode(&frame, area)
        case .done(let code, let created, let members):
            drawDone(&frame, area, code: code, created: created, members: members)
        }
        KeyHint.draw(
            KeyHint.fitting(hintSets(glyphs: frame.glyphs), width: area.width), into: &frame, x: area.x,
            y: inner.maxY - 1, limit: area.maxX)
    }

    private var preferredAreaHeight: Int {
        guard flow.step == .apps else { return Self.compactAreaHeight }
        // The intro and a blank row, every row of the list, and two rows under it for the new
        // app's name or a message.
        return max(Self.compactAreaHeight, 2 + listRows.count + 2)
    }

    private var stepTitle: String {
        switch flow.step {
        case .apps: "1 of 3: apps"
        case .name: "2 of 3: name"
        case .group, .joinCode: "3 of 3: group"
        case .done: "ready"
        }
    }

    /// The step's keys, fullest set first; a narrow box shows the first set that fits.
    func hintSets(glyphs: Glyphs) -> [[KeyHint]] {
        if flow.busy { return [[]] }
        let upDown = "\(glyphs.arrowUp)/\(glyphs.arrowDown)"
        let leftRight = "\(glyphs.arrowLeft)/\(glyphs.arrowRight)"
        let (enter, escape) = (KeyHint("enter", "continue"), KeyHint("esc", "back"))
        switch flow.step {
        case .apps where flow.adding != nil:
            return [
                [KeyHint("enter", "add"), KeyHint(leftRight, "vice/productive"), KeyHint("esc", "cancel")],
                [KeyHint("enter", "add"), KeyHint(leftRight, "category"), KeyHint("esc", "cancel")],
            ]
        case .apps:
            let (move, pick, quit) = (KeyHint(upDown, "move"), KeyHint("space", "pick"), KeyHint("esc", "quit"))
            return [
                [move, pick, KeyHint("a", "add your own"), enter, quit],
                [move, pick, KeyHint("a", "add"), enter, quit],
                [move, pick, KeyHint("a", "add"), KeyHint("enter", "next"), quit],
                [pick, KeyHint("a", "add"), enter, quit],
            ]
        case .name:
            return [[enter, escape]]
        case .group:
            let goal = flow.groupOption == .create ? [KeyHint(leftRight, "goal")] : []
            return [[KeyHint(upDown, "choose")] + goal + [KeyHint("enter", "go"), escape]]
        case .joinCode:
            return [[KeyHint("enter", "join"), escape]]
        case .done:
            return [[KeyHint("enter", "open the dashboard")]]
        }
    }

    // MARK: - Apps

    /// One row of the app list: a category heading, an app (its index in `choices`), or the
    /// "add your own" row (index `choices.count`).
    struct ListRow {
        let index: Int?
        let category: AppCategory?
    }

    var listRows: [ListRow] {
        var rows: [ListRow] = []
        for category in [AppCategory.vice, .productive] {
            rows.append(ListRow(index: nil, category: category))
            for (index, choice) in flow.choices.enumerated() where choice.app.category == category {
                rows.append(ListRow(index: index, category: nil))
            }
        }
        rows.append(ListRow(index: flow.choices.count, category: nil))
        return rows
    }

    private func drawApps(_ frame: inout Frame, _ area: Rect) {
        let g = frame.glyphs
        frame.put(
            DashboardView.fitting(
                ["Which apps should ScreenMates track?", "Pick the apps to track:"], width: area.width),
            x: area.x, y: area.y, style: Style(.text), maxWidth: area.width)
        let rows = listRows
        let listTop = area.y + 2
        let visible = max(1, area.height - 4)
        let cursorRow = rows.firstIndex { $0.index == flow.cursor } ?? 0
        let first = max(0, min(cursorRow - visible / 2, rows.count - visible))
        let shown = rows[first..<min(rows.count, first + visible)]
        let above = first
        let below = rows.count - first - shown.count
        for (offset, row) in shown.enumerated() {
            let y = listTop + offset
            // Room on the right for "↑ 3 more" on the first and last rows when the list scrolls.
            let marker =
                offset == 0 && above > 0
                ? " \(g.arrowUp) \(above) more"
                : (offset == shown.count - 1 && below > 0 ? " \(g.arrowDown) \(below) more" : "")
            let rowWidth = area.width - CellWidth.of(marker)
            if let category = row.category {
                let names =
                    category == .vice
                    ? ["Vice: counted against the daily limit", "Vice"] : ["Productive: earns you time", "Productive"]
                frame.put(
                    DashboardView.fitting(names, width: rowWidth), x: area.x, y: y, style: Style(.title, bold: true),
                    maxWidth: rowWidth)
            } else if let index = row.index {
                let isCursor = index == flow.cursor
                if isCursor { frame.put(g.pointer, x: area.x, y: y, style: Style(.accent, bold: true)) }
                let text: String
                var style: Style
                if index < flow.choices.count {
                    let choice = flow.choices[index]
                    text = "\(choice.picked ? "[x]" : "[ ]") \(choice.app.name)"
                    style = Style(choice.picked ? .accent : .text)
                } else {
                    text = "+ add your own\(g.ellipsis)"
                    style = Style(.muted)
                }
                if isCursor && flow.adding == nil { style.reverse = true }
                frame.put(text, x: area.x + 2, y: y, style: style, maxWidth: rowWidth - 2)
            }
            if !marker.isEmpty {
                frame.put(marker, x: area.maxX - CellWidth.of(marker), y: y, style: Style(.muted))
            }
        }
        let statusY = listTop + visible
        if let adding = flow.adding {
            let choice = flow.addingCategory == .vice ? "[vice] productive" : " vice [productive]"
            let used = frame.put("New app: ", x: area.x, y: statusY, style: Style(.text, bold: true))
            field(
                &frame, x: area.x + used, y: statusY, width: area.width - used - CellWidth.of(choice) - 2,
                text: adding.text)
            frame.put(choice, x: area.maxX - CellWidth.of(choice), y: statusY, style: Style(.key, bold: true))
            drawError(&frame, area, y: statusY + 1, limit: 1)
        } else if flow.error != nil {
            drawError(&frame, area, y: statusY)
        } else {
            let vice = flow.pickedApps.filter { $0.category == .vice }.count
            let productive = flow.pickedApps.count - vice
            frame.put(
                "Picked: \(vice) vice, \(productive) productive", x: area.x, y: statusY, style: Style(.muted),
                maxWidth: area.width)
        }
    }

    // MARK: - Name

    private func drawName(_ frame: inout Frame, _ area: Rect) {
        frame.put(
            "Pick a display name for the leaderboard:", x: area.x, y: area.y, style: Style(.text), maxWidth: area.width)
        frame.put(
            DashboardView.fitting(
                ["1-20 letters, digits or underscores; your group sees it.", "1-20 letters, digits or underscores."],
                width: area.width),
            x: area.x, y: area.y + 1, style: Style(.muted), maxWidth: area.width)
        let used = frame.put("Name: ", x: area.x, y: area.y + 3, style: Style(.text, bold: true))
        field(&frame, x: area.x + used, y: area.y + 3, width: area.width - used, text: flow.nameInput.text)
        let y = area.y + 5
        if flow.error != nil {
            drawError(&frame, area, y: y)
        } else if case .success(let name)? = flow.nameVerdict {
            wrapped(
                &frame, area, y: y, text: "\(frame.glyphs.check) \(name) looks good; enter saves it",
                style: Style(.good))
        } else if case .failure(let problem)? = flow.nameVerdict {
            wrapped(&frame, area, y: y, text: problem.message, style: Style(.warning))
        }
    }

    // MARK: - Group

    private func drawGroup(_ frame: inout Frame, _ area: Rect) {
        let g = frame.glyphs
        wrapped(
            &frame, area, y: area.y,
            text: "Compete with friends? A group shares one daily goal and a live leaderboard.", style: Style(.text))
        let goal =
            flow.groupOption == .create ? "\(g.arrowLeft) \(flow.goal) \(g.arrowRight)" : "\(flow.goal)"
        let options: [(SetupFlow.GroupOption, String)] = [
            (.create, "Create a new group, daily goal \(goal) blocks"),
            (.join, "Join a group with its 6-character code"),
            (.solo, "Not now: track on my own"),
        ]
        // A blank row between the options where there is room for it.
        let spacing = area.height >= Self.compactAreaHeight ? 2 : 1
        for (offset, (option, text)) in options.enumerated() {
            let y = area.y + 3 + offset * spacing
            let selected = option == flow.groupOption
            if selected { frame.put(g.pointer, x: area.x, y: y, style: Style(.accent, bold: true)) }
            let style = selected ? Style(.accent, bold: true, reverse: true) : Style(.text)
            frame.put(" \(text) ", x: area.x + 2, y: y, style: style, maxWidth: area.width - 2)
        }
        let y = area.y + 3 + (options.count - 1) * spacing + 2
        if flow.busy {
            frame.put("Creating the group\(g.ellipsis)", x: area.x, y: y, style: Style(.muted), maxWidth: area.width)
        } else {
            drawError(&frame, area, y: y)
        }
    }

    private func drawCode(_ frame: inout Frame, _ area: Rect) {
        frame.put("Type the code you were given:", x: area.x, y: area.y, style: Style(.text), maxWidth: area.width)
        frame.put(
            DashboardView.fitting(
                ["Case and spaces do not matter; codes never use 0, O, 1 or I.", "Case and spaces do not matter."],
                width: area.width),
            x: area.x, y: area.y + 1, style: Style(.muted), maxWidth: area.width)
        let used = frame.put("Code: ", x: area.x, y: area.y + 3, style: Style(.text, bold: true))
        field(&frame, x: area.x + used, y: area.y + 3, width: area.width - used, text: flow.codeInput.text)
        let y = area.y + 5
        if flow.busy {
            frame.put("Joining\(frame.glyphs.ellipsis)", x: area.x, y: y, style: Style(.muted), maxWidth: area.width)
        } else if flow.error != nil {
            drawError(&frame, area, y: y)
        } else if case .success(let code)? = flow.codeVerdict {
            frame.put(
                "\(frame.glyphs.check) \(code); enter joins", x: area.x, y: y, style: Style(.good), maxWidth: area.width
            )
        } else if case .failure(let problem)? = flow.codeVerdict {
            wrapped(&frame, area, y: y, text: problem.message, style: Style(.warning))
        }
    }

    // MARK: - Done

    private func drawDone(_ frame: inout Frame, _ area: Rect, code: String, created: Bool, members: Int) {
        let heading =
            created
            ? "Your group is ready. Share its code with friends:"
            : "You joined group \(code); it has \(members) member\(members == 1 ? "" : "s") now."
        wrapped(&frame, area, y: area.y, text: heading, style: Style(.text, bold: true), limit: 1)
        let codeStyle = Style(.accent, bold: true)
        var y = area.y + 2
        // Blank rows around the code where there is room for them.
        let gap = area.height >= Self.compactAreaHeight ? 1 : 0
        // The code big where it fits, and always in plain letters under it, to copy.
        if area.height >= Self.compactAreaHeight - 2,
            BigText.drawCentred(
                code, into: &frame, in: Rect(x: area.x, y: y, width: area.width, height: BigText.height),
                style: codeStyle)
        {
            y += BigText.height + gap
        }
        frame.put(code, x: area.x + max(0, (area.width - CellWidth.of(code)) / 2), y: y, style: codeStyle)
        y += 1 + gap
        let next =
            created
            ? ["Friends join with: screenmates group join \(code)", "screenmates group join \(code)"]
            : ["The leaderboard on the dashboard shows everyone.", "See everyone on the dashboard."]
        let line = DashboardView.fitting(next, width: area.width, ellipsis: frame.glyphs.ellipsis)
        frame.put(
            line, x: area.x + max(0, (area.width - CellWidth.of(line)) / 2), y: y, style: Style(.muted),
            maxWidth: area.width)
    }

    // MARK: - Pieces

    /// A text field from `x`: what is typed and the cursor. Text longer than the field shows
    /// its end (where the typing is), after an ellipsis.
    private func field(_ frame: inout Frame, x: Int, y: Int, width: Int, text: String) {
        let room = max(1, width - 1)
        var shown = SafeText.displayable(text)
        if CellWidth.of(shown) > room {
            let ellipsis = frame.glyphs.ellipsis
            while CellWidth.of(shown) > room - CellWidth.of(ellipsis), !shown.isEmpty { shown.removeFirst() }
            shown = ellipsis + shown
        }
        let typed = frame.put(shown, x: x, y: y, style: Style(.accent, bold: true), maxWidth: room)
        frame.put(frame.glyphs.cursor, x: x + typed, y: y, style: Style(.accent))
    }

    private func drawError(_ frame: inout Frame, _ area: Rect, y: Int, limit: Int = 2) {
        guard let error = flow.error else { return }
        wrapped(
            &frame, area, y: y, text: "\(frame.glyphs.cross) \(error)", style: Style(.error, bold: true), limit: limit)
    }

    /// `text` wrapped to the area's width, at most `limit` lines (a cut last line ends in "…").
    private func wrapped(_ frame: inout Frame, _ area: Rect, y: Int, text: String, style: Style, limit: Int = 2) {
        let lines = WordWrap.lines(text, width: area.width, limit: limit, ellipsis: frame.glyphs.ellipsis)
        for (index, line) in lines.enumerated() {
            frame.put(line, x: area.x, y: y + index, style: style, maxWidth: area.width)
        }
    }
}
