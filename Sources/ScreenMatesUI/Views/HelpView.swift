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
