/// A horizontal bar drawn with block characters, in eighths of a cell where the glyphs allow.
public enum ProgressBar {
    /// The filled part and the empty part of a bar `width` cells wide at `fraction` (clamped to 0…1).
    public static func pieces(fraction: Double, width: Int, glyphs: Glyphs) -> (filled: String, empty: String) {
        guard width > 0 else { return ("", "") }
        let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
        let steps = glyphs.barPartials.count + 1
        let totalSteps = Int((clamped * Double(width * steps)).rounded(.down))
        let full = totalSteps / steps
        let partial = totalSteps % steps
        var filled = String(repeating: glyphs.barFull, count: full)
        var used = full
        if partial > 0 && used < width {
            filled += glyphs.barPartials[partial - 1]
            used += 1
        }
        return (filled, String(repeating: glyphs.barEmpty, count: width - used))
    }
}
