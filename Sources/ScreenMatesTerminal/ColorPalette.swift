import CNcursesw
import ScreenMatesUI

/// Turns the theme's roles into ncurses colour pairs and attributes for the colours this
/// terminal has: RGB themes map to the nearest of 256 colours, or to their basic-colour
/// fallback on 8-colour terminals; without colour only the attributes remain.
struct ColorPalette {
    private var pairs: [ColorRole: Int16] = [:]
    private var attributes: [ColorRole: attr_t] = [:]

    init(theme: Theme, useColor: Bool) {
        // COLORS is only known once start_color has run.
        var colorCount = 0
        if useColor && has_colors() && start_color() == OK {
            use_default_colors()
            colorCount = Int(sm_colors())
        }
        for (index, role) in ColorRole.allCases.enumerated() {
            let look = theme.look(role)
            var attrs = sm_a_normal
            if look.bold { attrs |= sm_a_bold }
            if look.reverse { attrs |= sm_a_reverse }
            attributes[role] = attrs
            guard colorCount >= 8 else { continue }
            let rich = colorCount >= 256
            let foreground = Self.number(for: rich ? look.foreground : look.foreground8, colors: colorCount)
            let background = Self.number(for: rich ? look.background : look.background8, colors: colorCount)
            let pair = Int16(index + 1)
            if init_pair(pair, foreground, background) != ERR { pairs[role] = pair }
        }
    }

    /// Attributes and colour pair for a style.
    func resolve(_ style: Style) -> (attr_t, Int16) {
        var attrs = attributes[style.role] ?? sm_a_normal
        if style.bold { attrs |= sm_a_bold }
        if style.dim { attrs |= sm_a_dim }
        if style.reverse { attrs ^= sm_a_reverse }
        if style.underline { attrs |= sm_a_underline }
        return (attrs, pairs[style.role] ?? 0)
    }

    /// The ncurses colour number for a theme colour (-1 is the terminal's default).
    static func number(for color: ThemeColor, colors: Int) -> Int16 {
        switch color {
        case .terminalDefault:
            return -1
        case .basic(let index):
            return Int16(index)
        case .rgb(let red, let green, let blue):
            if colors >= 256 { return Int16(xterm256(red: red, green: green, blue: blue)) }
            return Int16(nearestBasic(red: red, green: green, blue: blue))
        }
    }

    /// The nearest entry of the xterm 256-colour palette (the 6×6×6 cube or the grey ramp).
    static func xterm256(red: Int, green: Int, blue: Int) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: Int) -> Int {
            levels.indices.min { abs(levels[$0] - value) < abs(levels[$1] - value) }!
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeDistance = distance((levels[r], levels[g], levels[b]), (red, green, blue))
        let average = (red + green + blue) / 3
        let greyIndex = max(0, min(23, (average - 8 + 5) / 10))
        let greyValue = 8 + 10 * greyIndex
        let greyDistance = distance((greyValue, greyValue, greyValue), (red, green, blue))
        return greyDistance < cubeDistance ? 232 + greyIndex : cube
    }

    static func nearestBasic(red: Int, green: Int, blue: Int) -> Int {
        let basics = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229),
        ]
        return basics.indices.min {
            distance(basics[$0], (red, green, blue)) < distance(basics[$1], (red, green, blue))
        }!
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }
}
