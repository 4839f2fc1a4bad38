import Testing

@testable import ScreenMatesTerminal

/// Theme colours mapped to the colours a terminal has: the xterm 256-colour palette (the
/// 6×6×6 cube and the grey ramp) and the eight basic colours. No terminal needed.
@Suite struct ColorPaletteTests {
    /// The RGB value of xterm colour `index` (16…255).
    static func xtermRGB(_ index: Int) -> (Int, Int, Int) {
        let levels = [0, 95, 135, 175, 215, 255]
        if index >= 232 {
            let grey = 8 + 10 * (index - 232)
            return (grey, grey, grey)
        }
        let cube = index - 16
        return (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
    }

    /// The RGB values of xterm colours 16…255, in order.
    static let xterm = (16...255).map(xtermRGB)

    static let basics = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    ]

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }

    /// A fixed spread of colours: a grid over the whole RGB cube, the cube's and the ramp's own
    /// values and the midpoints between neighbouring levels, where rounding goes wrong first.
    static let samples: [(Int, Int, Int)] = {
        var values = Array(stride(from: 0, through: 255, by: 51))
        values += [95, 135, 175, 215, 47, 48, 115, 155, 195, 235, 8, 13, 128, 238, 247]
        var result: [(Int, Int, Int)] = []
        for red in values {
            for green in values {
                for blue in values { result.append((red, green, blue)) }
            }
        }
        for grey in 0...255 { result.append((grey, grey, grey)) }
        return result
    }()

    @Test func blackAndWhiteAreTheCubeCorners() {
        #expect(ColorPalette.xterm256(red: 0, green: 0, blue: 0) == 16)
        #expect(ColorPalette.xterm256(red: 255, green: 255, blue: 255) == 231)
    }

    @Test func midGreyIsOnTheGreyRamp() {
        let index = ColorPalette.xterm256(red: 0x80, green: 0x80, blue: 0x80)
        #expect((232...255).contains(index))
        #expect(index == 244)  // 8 + 10 × 12 = 128 exactly
    }

    @Test(arguments: [
        ((255, 0, 0), 196), ((0, 255, 0), 46), ((0, 0, 255), 21), ((255, 255, 0), 226), ((0, 255, 255), 51),
        ((255, 0, 255), 201),
    ])
    func primariesAndSecondariesGoToTheirCubeCorner(color: (Int, Int, Int), index: Int) {
        #expect(ColorPalette.xterm256(red: color.0, green: color.1, blue: color.2) == index)
    }

    /// The chosen colour is never farther than any other candidate, cube or grey.
    @Test func theChosenXtermColourIsTheNearest() {
        for color in Self.samples {
            let index = ColorPalette.xterm256(red: color.0, green: color.1, blue: color.2)
            guard (16...255).contains(index) else {
                Issue.record("\(color) gave \(index), outside the cube and the ramp")
                continue
            }
            let chosen = Self.distance(Self.xterm[index - 16], color)
            var nearestCube = Int.max
            var nearestGrey = Int.max
            for (offset, rgb) in Self.xterm.enumerated() {
                let distance = Self.distance(rgb, color)
                if offset + 16 < 232 {
                    nearestCube = min(nearestCube, distance)
                } else {
                    nearestGrey = min(nearestGrey, distance)
                }
            }
            #expect(chosen <= nearestCube && chosen <= nearestGrey, "\(color) gave \(index)")
        }
    }

    @Test(arguments: [
        ((0, 0, 0), 0), ((255, 0, 0), 1), ((0, 255, 0), 2), ((255, 255, 0), 3), ((0, 0, 255), 4), ((255, 0, 255), 5),
        ((0, 255, 255), 6), ((255, 255, 255), 7), ((200, 200, 200), 7), ((40, 40, 40), 0), ((120, 0, 0), 1),
    ])
    func nearestBasicColour(color: (Int, Int, Int), index: Int) {
        #expect(ColorPalette.nearestBasic(red: color.0, green: color.1, blue: color.2) == index)
    }

    @Test func theChosenBasicColourIsTheNearest() {
        for color in Self.samples {
            let index = ColorPalette.nearestBasic(red: color.0, green: color.1, blue: color.2)
            let nearest = Self.basics.map { Self.distance($0, color) }.min()!
            #expect(Self.distance(Self.basics[index], color) == nearest, "\(color) gave \(index)")
        }
    }

    @Test func themeColoursBecomeColourNumbers() {
        #expect(ColorPalette.number(for: .terminalDefault, colors: 256) == -1)
        #expect(ColorPalette.number(for: .basic(3), colors: 8) == 3)
        #expect(ColorPalette.number(for: .rgb(red: 255, green: 0, blue: 0), colors: 256) == 196)
        #expect(ColorPalette.number(for: .rgb(red: 255, green: 0, blue: 0), colors: 8) == 1)
    }
}
