import ScreenMatesCore

/// The help screen: every binding of the key table, grouped by the screen it works on, and what
/// the numbers mean.
///
/// Each binding is listed once, under the first screen that has it (the dashboard, then the
/// group screen, then help itself), with all its keys; where the screen is too narrow for all
/// of them, with its short label, so that no binding is ever left out or cut.
struct HelpView {
    let model: ScreensModel

    static let explanations = [
        // Worded to fit an 80×24 help screen whole, under the key list.
        ("Balance", "productive time earned minus vice time spent; never below 0."),
        ("Streak", "days in a row within the daily limit; no usage counts as kept."),
        ("Today", "vice blocks used against the daily goal; warns at 75% and 90%."),
        ("Leaderboard", "fewest vice blocks first; ties: longer streak, then name."),
    ]

    /// Keys the terminal handles itself, not the key table.
    static let terminalKeys = [KeyHint("ctrl-z", "suspend (fg resumes)"), KeyHint("ctrl-c", "quit")]

    /// A titled list of keys.
    struct Section {
        let title: String
        let entries: [KeyHint]

        var height: Int { 1 + entries.count }
        var keyWidth: Int { entries.map { CellWidth.of($0.label) }.max() ?? 0 }
        var summaryWidth: Int { entries.map { CellWidth.of($0.summary) }.max() ?? 0 }
    }

    /// The sections, each binding under the first screen that has it. `allKeys` writes every key
    /// of a binding (`r, F5, ctrl-l`); otherwise its short label (`r`).
    static func sections(for keys: KeyTable, allKeys: Bool) -> [Section] {
        let screens: [(ScreenKind, String)] = [
            (.dashboard, "Dashboard"), (.group, "Group screen (g)"), (.settings, "Settings screen (s)"),
            (.history, "History screen (h)"), (.notices, "Notices screen (n)"),
            (.debug, "Debug panel (D)"), (.help, "Help screen"),
            (.tooSmall, "Terminal too small"),
        ]
        var listed = Set<Int>()
        var sections: [Section] = []
        for (screen, title) in screens {
            let indices = keys.bindings.indices.filter { keys.bindings[$0].screens.contains(screen) }
            let entries = indices.filter { listed.insert($0).inserted }.map { index in
                let binding = keys.bindings[index]
                return KeyHint(
                    allKeys && !binding.keys.isEmpty
                        ? binding.keys.map(\.label).joined(separator: ", ") : binding.label, binding.summary)
            }
            if !entries.isEmpty { sections.append(Section(title: title, entries: entries)) }
        }
        let rest = keys.bindings.indices.filter { !listed.contains($0) }.map { KeyHint(keys.bindings[$0]) }
        if !rest.isEmpty { sections.append(Section(title: "Not on any screen", entries: rest)) }
        sections.append(Section(title: "Anywhere", entries: terminalKeys))
        return sections
    }

    /// One column of sections, their keys and summaries aligned.
    struct Column {
        let sections: [Section]
        /// Blank cells between a key and what it does.
        let keyGap: Int
        /// Blank rows between sections (their bold titles part them when there is no room).
        var sectionGap = 1

        var keyWidth: Int { sections.map(\.keyWidth).max() ?? 0 }
        var width: Int {
            max(
                sections.map { CellWidth.of($0.title) }.max() ?? 0,
                keyWidth + keyGap + (sections.map(\.summaryWidth).max() ?? 0))
        }
        /// Rows, with a blank one between sections.
        var height: Int { sections.reduce(0) { $0 + $1.height } + sectionGap * max(0, sections.count - 1) }
    }

    /// Where the keys go: the first section (the dashboard's) in the left column and the others
    /// stacked in the right one (the last, "Anywhere", under the dashboard's where that evens the
    /// columns out), or all in one column.
    struct Placement {
        let columns: [Column]
        let gap: Int

        var width: Int { columns.reduce(0) { $0 + $1.width } + gap * (columns.count - 1) }
        var height: Int { columns.map(\.height).max() ?? 0 }
    }

    /// The roomiest placement that fits `width` × `height`: all keys before short labels, two
    /// columns before one, wide gaps before narrow ones. The last resort is the narrowest.
    static func placement(for keys: KeyTable, width: Int, height: Int) -> Placement {
        var candidates: [Placement] = []
        for allKeys in [true, false] {
            let sections = sections(for: keys, allKeys: allKeys)
            // The dashboard's keys on the left and the other screens' on the right; or, to even
            // the columns out, the keys that work anywhere under the dashboard's.
            let splits = [
                [Array(sections.prefix(1)), Array(sections.dropFirst())],
                [Array(sections.prefix(1) + sections.suffix(1)), Array(sections.dropFirst().dropLast())],
            ]
            for sectionGap in [1, 0] {
                for (keyGap, gap) in [(2, 4), (2, 2), (1, 2)] {
                    for split in splits {
                        candidates.append(
                            Placement(
                                columns: split.map { Column(sections: $0, keyGap: keyGap, sectionGap: sectionGap) },
                                gap: gap))
                    }
                }
            }
            candidates.append(Placement(columns: [Column(sections: sections, keyGap: 2)], gap: 0))
        }
        // Too tall for the screen: the one that fits the width with the fewest rows to scroll.
        return candidates.first { $0.width <= width && $0.height <= height }
            ?? candidates.filter { $0.width <= width }.min { $0.height < $1.height }
            ?? candidates.min { $0.width < $1.width }!
    }

    /// The help box's inside on a `width` × `height` screen.
    static func inner(width: Int, height: Int) -> Rect {
        Rect(x: 0, y: 0, width: width, height: height).splitBottom(1).rest.inner
    }

    /// Rows the keys and the explanations take, drawn `width` cells wide: more than the box
    /// holds on a small screen, which then scrolls.
    static func contentHeight(keys: KeyTable, screenWidth: Int, screenHeight: Int) -> Int {
        let layout = keyLayout(keys: keys, screenWidth: screenWidth, screenHeight: screenHeight)
        return layout.placement.height + explanationRows(screenWidth: screenWidth, gap: layout.explanationGap)
    }

    /// Rows "The numbers" takes under the keys, with `gap` blank rows above it.
    static func explanationRows(screenWidth: Int, gap: Int) -> Int {
        let width = inner(width: screenWidth, height: 1).width - 3 - 13
        return gap + 1 + explanations.reduce(0) { $0 + WordWrap.lines($1.1, width: width).count }
    }

    /// The keys' placement, leaving room for the explanations below them, and the blank rows
    /// between the two: one, or none where that lets everything fit without scrolling.
    static func keyLayout(keys: KeyTable, screenWidth: Int, screenHeight: Int) -> (
        placement: Placement, explanationGap: Int
    ) {
        let inner = inner(width: screenWidth, height: screenHeight)
        var layouts: [(placement: Placement, explanationGap: Int)] = []
        for gap in [1, 0] {
            let height = inner.height - explanationRows(screenWidth: screenWidth, gap: gap)
            let placement = placement(for: keys, width: inner.width - 3, height: height)
            if placement.width <= inner.width - 3 && placement.height <= height { return (placement, gap) }
            layouts.append((placement, gap))
        }
        return layouts[0]
    }

    /// How far the help can scroll on a `width` × `height` screen.
    static func maximumScroll(keys: KeyTable, width: Int, height: Int) -> Int {
        max(
            0,
            contentHeight(keys: keys, screenWidth: width, screenHeight: height)
                - inner(width: width, height: height).height)
    }

    func draw(into frame: inout Frame) {
        let bounds = frame.bounds
        let (body, footer) = bounds.splitBottom(1)
        let inner = body.inner
        let total = Self.contentHeight(keys: model.keys, screenWidth: frame.width, screenHeight: frame.height)
        let scroll = max(0, min(model.helpScroll, total - inner.height))
        let more = total - scroll > inner.height
        frame.box(
            body,
            title: scroll > 0 || more
                ? "Help \(frame.glyphs.bullet) \(more ? "\(frame.glyphs.arrowDown)/j more" : "\(frame.glyphs.arrowUp)/k back")"
                : "Help")
        // Drawn whole on a tall page, then the visible rows copied into the box.
        var page = Frame(width: frame.width, height: max(total, inner.height), glyphs: frame.glyphs)
        drawContent(into: &page, inner: Rect(x: inner.x, y: 0, width: inner.width, height: page.height))
        frame.copyRows(
            from: page, firstRow: scroll, count: inner.height, toRow: inner.y, x: inner.x, width: inner.width)
        FooterView(keys: model.keys.footer(for: .help), warning: nil, note: nil).draw(into: &frame, in: footer)
    }

    private func drawContent(into frame: inout Frame, inner: Rect) {
        let x = inner.x + 2
        let width = inner.width - 3
        let (placement, explanationGap) = Self.keyLayout(
            keys: model.keys, screenWidth: frame.width, screenHeight: model.height)
        var columnX = x
        for column in placement.columns {
            var y = inner.y
            let summaryX = columnX + column.keyWidth + column.keyGap
            for section in column.sections where y < inner.maxY {
                frame.put(
                    section.title, x: columnX, y: y, style: Style(.title, bold: true), maxWidth: x + width - columnX)
                y += 1
                for entry in section.entries where y < inner.maxY {
                    frame.put(entry.label, x: columnX, y: y, style: Style(.key, bold: true), maxWidth: column.keyWidth)
                    frame.put(
                        entry.summary, x: summaryX, y: y, style: Style(.text), maxWidth: max(0, x + width - summaryX))
                    y += 1
                }
                y += column.sectionGap
            }
            columnX += column.width + placement.gap
        }
        drawExplanations(
            &frame, x: x, y: inner.y + placement.height + explanationGap, width: width, bottom: inner.maxY)
    }

    /// What the numbers mean, below the keys: each explanation whole or not at all.
    private func drawExplanations(_ frame: inout Frame, x: Int, y: Int, width: Int, bottom: Int) {
        let wrapped = Self.explanations.map { ($0.0, WordWrap.lines($0.1, width: width - 13)) }
        guard let first = wrapped.first, y + 1 + first.1.count <= bottom else { return }
        var y = y
        frame.put("The numbers", x: x, y: y, style: Style(.title, bold: true))
        y += 1
        for (title, lines) in wrapped {
            guard y + lines.count <= bottom else { break }
            frame.put(title, x: x, y: y, style: Style(.accent, bold: true))
            for line in lines {
                frame.put(line, x: x + 13, y: y, style: Style(.text), maxWidth: width - 13)
                y += 1
            }
        }
    }
}
