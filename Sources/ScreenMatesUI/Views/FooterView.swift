import ScreenMatesCore

/// A key and what it does, as a footer or a dialog's hint line shows it: `esc back`.
struct KeyHint: Hashable {
    let label: String
    let summary: String
    /// The wording where the row is too short for every hint's `summary`.
    let shortSummary: String

    init(_ label: String, _ summary: String, short: String? = nil) {
        self.label = label
        self.summary = summary
        self.shortSummary = short ?? summary
    }

    init(_ binding: KeyBinding) { self.init(binding.label, binding.summary, short: binding.shortSummary) }

    /// The same key with its short wording.
    var shortened: KeyHint { KeyHint(label, shortSummary) }

    /// Cells the hint takes, without the gap after it.
    var width: Int { CellWidth.of(label) + 1 + CellWidth.of(summary) }

    /// Cells `hints` take in a row, with their gaps.
    static func width(of hints: [KeyHint]) -> Int {
        hints.reduce(0) { $0 + $1.width } + 2 * max(0, hints.count - 1)
    }

    /// The first of `candidates` (fullest first) that fits in `width` cells, else the last one:
    /// where the row is short, a shorter set keeps the keys that matter most.
    static func fitting(_ candidates: [[KeyHint]], width: Int) -> [KeyHint] {
        candidates.first { Self.width(of: $0) <= width } ?? candidates.last ?? []
    }

    /// `hints` as they are where they fit in `width` cells, else with their short wordings, so
    /// that a narrow row keeps every key before it drops any.
    static func fitting(_ hints: [KeyHint], width: Int) -> [KeyHint] {
        Self.width(of: hints) <= width ? hints : hints.map(\.shortened)
    }

    /// Draws `hints` from `x` on row `y`, two blank cells apart, up to `limit` (a column). A hint
    /// that does not fit whole is left out with every one after it, never cut mid-word.
    /// Returns the column after the last hint drawn.
    @discardableResult
    static func draw(_ hints: [KeyHint], into frame: inout Frame, x: Int, y: Int, limit: Int) -> Int {
        var column = x
        for hint in hints {
            guard column + hint.width <= limit else { break }
            let used = frame.put(hint.label, x: column, y: y, style: Style(.key, bold: true))
            frame.put(" " + hint.summary, x: column + used, y: y, style: Style(.muted))
            column += hint.width + 2
        }
        return column
    }
}

/// The bottom line: keys on the left (from the key table, or a mode's own keys while text is
/// being typed), a warning or a note on the right.
struct FooterView {
    let hints: [KeyHint]
    let warning: String?
    let note: String?

    init(keys: [KeyBinding], warning: String?, note: String?) {
        self.init(hints: keys.map(KeyHint.init), warning: warning, note: note)
    }

    init(hints: [KeyHint], warning: String? = nil, note: String? = nil) {
        self.hints = hints
        self.warning = warning
        self.note = note
    }

    func draw(into frame: inout Frame, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let message = warning ?? note
        let messageWidth = message.map { min(CellWidth.of($0) + 1, rect.width / 2) } ?? 0
        // Hints stop two blank cells before the message, so they never run into it.
        let limit = message == nil ? rect.maxX : rect.maxX - messageWidth - 2
        KeyHint.draw(
            KeyHint.fitting(hints, width: limit - rect.x - 1), into: &frame, x: rect.x + 1, y: rect.y, limit: limit)
        if let message {
            // A long message is cut with an ellipsis, keeping one blank cell at the right edge.
            frame.put(
                SafeText.truncated(message, toCells: messageWidth - 1, ellipsis: frame.glyphs.ellipsis),
                x: rect.maxX - messageWidth, y: rect.y,
                style: warning == nil ? Style(.muted) : Style(.error, bold: true))
        }
    }
}
