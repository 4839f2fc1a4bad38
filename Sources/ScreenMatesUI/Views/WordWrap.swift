import ScreenMatesCore

/// Greedy word wrap in terminal cells, for messages drawn in a box.
///
/// A word wider than the line (a long path, a pasted code) is split across lines rather than
/// cut off, so the whole message is always there to read; a wide character is never split.
enum WordWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in SafeText.displayable(text).split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if CellWidth.of(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = ""
            // Split a word too long for a line of its own.
            for cell in TextCell.split(String(word)) {
                if CellWidth.of(current) + cell.width > width {
                    lines.append(current)
                    current = ""
                }
                current += cell.text
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
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
