import ScreenMatesCore

/// A line of styled pieces, for the profile and week screens, which list more than fits and
/// scroll (`ScrollMark` says what is above and below).
struct GameLine: Hashable {
    var pieces: [(text: String, style: Style)]

    init(_ pieces: [(text: String, style: Style)]) { self.pieces = pieces }

    init(_ text: String, _ style: Style = .plain) { pieces = [(text, style)] }

    static let blank = GameLine("")

    static func == (a: GameLine, b: GameLine) -> Bool {
        a.pieces.map(\.text) == b.pieces.map(\.text) && a.pieces.map(\.style) == b.pieces.map(\.style)
    }

    func hash(into hasher: inout Hasher) {
        for piece in pieces {
            hasher.combine(piece.text)
            hasher.combine(piece.style)
        }
    }

    /// Draws `lines` inside `box` from `scroll` (kept within what there is), with the scroll
    /// marks on the box's bottom edge.
    static func draw(_ lines: [GameLine], into frame: inout Frame, box: Rect, scroll: Int) {
        let inner = box.inner
        guard inner.height > 0 else { return }
        let first = min(max(0, scroll), maximumScroll(lines.count, rows: inner.height))
        for (row, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
            var x = inner.x + 1
            for piece in line.pieces {
                // A piece that does not fit ends in an ellipsis, never cut mid-word unmarked.
                let room = max(0, inner.maxX - 1 - x)
                let text =
                    CellWidth.of(piece.text) > room
                    ? SafeText.truncated(piece.text, toCells: room, ellipsis: frame.glyphs.ellipsis) : piece.text
                x += frame.put(text, x: x, y: inner.y + row, style: piece.style, maxWidth: room)
            }
        }
        ScrollMark.draw(
            into: &frame, box: box, above: first, below: max(0, lines.count - first - inner.height))
    }

    static func maximumScroll(_ count: Int, rows: Int) -> Int { max(0, count - rows) }

    /// `+20`, `-10`, `0`.
    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }
}

/// The frame every game screen shares: the header, a body, the footer's hints and a message.
enum GameScreenFrame {
    /// Draws the header and the footer; returns the body's rectangle.
    static func draw(
        _ model: ScreensModel, into frame: inout Frame, hints: [KeyHint], message: String? = nil, error: Bool = false
    ) -> Rect {
        let (headerRow, belowHeader) = frame.bounds.splitTop(1)
        let (body, footer) = belowHeader.splitBottom(1)
        if let data = model.data { HeaderView(data: data).draw(into: &frame, in: headerRow) }
        let offline = model.data?.games?.offline == true ? "group store out of reach: as last seen" : nil
        FooterView(
            hints: hints, warning: error ? message : model.data?.warning,
            note: error ? nil : message ?? offline
        ).draw(into: &frame, in: footer)
        return body
    }
}
