import ScreenMatesCore

/// The help screen: every key from the key table, and what the numbers mean.
struct HelpView {
    let model: DashboardModel

    static let explanations = [
        // Worded to fit an 80×24 help screen whole, under the key list.
        (
            "Balance",
            "productive time earned minus vice time spent; never below zero (the rest is overdraft). "
                + "Starts at zero each day."
        ),
        ("Streak", "days in a row within the daily limit; no usage counts as kept."),
        ("Today", "vice blocks used against the daily goal; warns at 75% and 90%."),
        ("Leaderboard", "fewest vice blocks first; ties go to the longer streak, then by name."),
    ]

    func draw(into frame: inout Frame) {
        let bounds = frame.bounds
        let (body, footer) = bounds.splitBottom(1)
        frame.box(body, title: "Help")
        let inner = body.inner
        var y = inner.y
        let x = inner.x + 2
        let width = inner.width - 3
        frame.put("Keys", x: x, y: y, style: Style(.title, bold: true))
        y += 1
        var seen = Set<Action>()
        for binding in model.keys.bindings where seen.insert(binding.action).inserted && y < inner.maxY {
            let keys = binding.keys.map(\.label).joined(separator: ", ")
            frame.put(SafeText.padded(keys, toCells: 18), x: x, y: y, style: Style(.key, bold: true))
            frame.put(binding.summary, x: x + 19, y: y, style: Style(.text), maxWidth: width - 19)
            y += 1
        }
        for (keys, summary) in [("ctrl-z", "suspend (fg resumes)"), ("ctrl-c", "quit")] where y < inner.maxY {
            frame.put(SafeText.padded(keys, toCells: 18), x: x, y: y, style: Style(.key, bold: true))
            frame.put(summary, x: x + 19, y: y, style: Style(.text), maxWidth: width - 19)
            y += 1
        }
        y += 1
        if y < inner.maxY {
            frame.put("The numbers", x: x, y: y, style: Style(.title, bold: true))
            y += 1
        }
        for (title, text) in Self.explanations {
            for (index, line) in Self.wrap(text, width: width - 13).enumerated() where y < inner.maxY {
                if index == 0 { frame.put(title, x: x, y: y, style: Style(.accent, bold: true)) }
                frame.put(line, x: x + 13, y: y, style: Style(.text), maxWidth: width - 13)
                y += 1
            }
        }
        FooterView(keys: model.keys.footer(for: .help), warning: nil, note: nil).draw(into: &frame, in: footer)
    }

    /// Greedy word wrap in cells.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if CellWidth.of(candidate) > width && !current.isEmpty {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

/// Shown instead of a garbled dashboard when the terminal is below the minimum size. `q`
/// still quits.
struct TooSmallView {
    let width: Int
    let height: Int

    func draw(into frame: inout Frame) {
        let times = frame.glyphs.times
        let lines = [
            ("Terminal too small", Style(.error, bold: true)),
            (
                "\(width)\(times)\(height), need \(DashboardModel.minimumWidth)\(times)\(DashboardModel.minimumHeight)",
                Style(.text)
            ),
            ("enlarge it, or press q to quit", Style(.muted)),
        ]
        let top = max(0, (frame.height - lines.count) / 2)
        for (index, (text, style)) in lines.enumerated() {
            let shown = SafeText.truncated(text, toCells: frame.width)
            let x = max(0, (frame.width - CellWidth.of(shown)) / 2)
            frame.put(shown, x: x, y: top + index, style: style)
        }
    }
}

/// First run: asks for the display name, checking it on every key.
struct NamePromptView {
    let model: DashboardModel

    func draw(into frame: inout Frame) {
        let width = min(frame.width - 4, 64)
        // Tall enough for a blank row between a two-line error and the keys below it.
        let rect = Rect(x: (frame.width - width) / 2, y: max(0, (frame.height - 12) / 2), width: width, height: 12)
        frame.box(rect, title: "Welcome to ScreenMates")
        let inner = rect.inner
        let x = inner.x + 2
        let w = inner.width - 4
        frame.put("Pick a display name for the leaderboard:", x: x, y: inner.y + 1, style: Style(.text), maxWidth: w)
        frame.put(
            "1-20 letters, digits or underscores.", x: x, y: inner.y + 2, style: Style(.muted), maxWidth: w)
        let label = "Name: "
        let used = frame.put(label, x: x, y: inner.y + 4, style: Style(.text, bold: true))
        let typed = model.nameInput.text
        let shown =
            CellWidth.of(SafeText.displayable(typed)) > w - used - 1
            ? SafeText.truncated(typed, toCells: w - used - 1) : typed
        let typedWidth = frame.put(
            shown, x: x + used, y: inner.y + 4, style: Style(.accent, bold: true), maxWidth: w - used)
        frame.put(frame.glyphs.cursor, x: x + used + typedWidth, y: inner.y + 4, style: Style(.accent))
        let g = frame.glyphs
        if let error = model.nameError {
            for (index, line) in HelpView.wrap("\(g.cross) \(error)", width: w).prefix(2).enumerated() {
                frame.put(line, x: x, y: inner.y + 6 + index, style: Style(.error, bold: true), maxWidth: w)
            }
        } else if !typed.isEmpty {
            switch Result(catching: { () throws(DisplayNameError) in try DisplayName(validating: typed) }) {
            case .success:
                frame.put(
                    "\(g.check) looks good; enter saves it", x: x, y: inner.y + 6, style: Style(.good), maxWidth: w)
            case .failure(let error):
                for (index, line) in HelpView.wrap(error.message, width: w).prefix(2).enumerated() {
                    frame.put(line, x: x, y: inner.y + 6 + index, style: Style(.warning), maxWidth: w)
                }
            }
        }
        frame.put("enter save   esc quit", x: x, y: inner.maxY - 1, style: Style(.muted), maxWidth: w)
    }
}
