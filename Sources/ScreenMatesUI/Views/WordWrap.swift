import ScreenMatesCore

/// Greedy word wrap in terminal cells, for messages drawn in a box.
///
/// A word wider than the line (a long path, a pasted code) is split across lines rather than
/// cut off, so the whole message is always there to read: after a `/` where it has one (a path
/// breaks between its directories), else at the last cell that fits; a wide character is never
/// split.
enum WordWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in SafeText.displayable(text).split(separator: " ") {
            // A word too long for a line of its own goes in pieces, each ending in a "/".
            let pieces = CellWidth.of(String(word)) > width ? pathPieces(String(word)) : [String(word)]
            for (index, piece) in pieces.enumerated() {
                let joiner = index == 0 && !current.isEmpty ? " " : ""
                if CellWidth.of(current + joiner + piece) <= width {
                    current += joiner + piece
                    continue
                }
                if CellWidth.of(piece) <= width {
                    if !current.isEmpty { lines.append(current) }
                    current = piece
                    continue
                }
                // A piece too long for a line of its own fills the line it starts on, then the
                // next ones.
                if CellWidth.of(current + joiner) < width {
                    current += joiner
                } else if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                for cell in TextCell.split(piece) {
                    if CellWidth.of(current) + cell.width > width {
                        lines.append(current)
                        current = ""
                    }
                    current += cell.text
                }
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `word` cut after each `/`: `/tmp/h/local.sqlite` → `/`, `tmp/`, `h/`, `local.sqlite`.
    private static func pathPieces(_ word: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        for character in word {
            current.append(character)
            if character == "/" {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// `lines(text, width)`, at most `limit` of them; a cut last line ends in `ellipsis`.
    static func lines(_ text: String, width: Int, limit: Int, ellipsis: String) -> [String] {
        var all = lines(text, width: width)
        guard all.count > limit, limit > 0 else { return all }
        all = Array(all.prefix(limit))
        let budget = max(0, width - CellWidth.of(ellipsis))
        all[limit - 1] = SafeText.truncated(all[limit - 1], toCells: budget, ellipsis: "") + ellipsis
        return all
    }
}
