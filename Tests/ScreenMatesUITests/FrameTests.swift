import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The frame model on its own: clipping, wide characters, sanitising, boxes and the diff the
/// terminal writes.
@Suite struct FrameTests {
    /// Every continuation cell sits right after the left half of a two-cell character, and every
    /// two-cell character is followed by its continuation: no half of a wide character is orphaned.
    static func expectNoOrphanHalves(_ frame: Frame, sourceLocation: SourceLocation = #_sourceLocation) {
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let cell = frame[x, y]
                if cell.isContinuation {
                    let left = x > 0 ? frame[x - 1, y] : nil
                    #expect(
                        left.map { !$0.isContinuation && CellWidth.of($0.text) == 2 } == true,
                        "orphan continuation at (\(x), \(y))", sourceLocation: sourceLocation)
                } else if CellWidth.of(cell.text) == 2 {
                    #expect(
                        x + 1 < frame.width && frame[x + 1, y].isContinuation,
                        "wide character without its right half at (\(x), \(y))", sourceLocation: sourceLocation)
                }
            }
        }
    }

    // MARK: - put

    @Test func putClipsAtTheRightEdge() {
        var frame = Frame(width: 6, height: 1)
        let written = frame.put("abcdefgh", x: 3, y: 0)
        #expect(written == 3)
        #expect(frame.line(0) == "   abc")
    }

    @Test func putClipsAtTheLeftEdge() {
        var frame = Frame(width: 6, height: 1)
        frame.put("abcdefgh", x: -2, y: 0)
        #expect(frame.line(0) == "cdefgh")
    }

    @Test func putOutsideTheRowsWritesNothing() {
        var frame = Frame(width: 4, height: 2)
        #expect(frame.put("abc", x: 0, y: -1) == 0)
        #expect(frame.put("abc", x: 0, y: 2) == 0)
        #expect(frame.text == "\n")
    }

    @Test func putClipsAtMaxWidth() {
        var frame = Frame(width: 10, height: 1)
        frame.put("##########", x: 0, y: 0)
        let written = frame.put("abcdef", x: 2, y: 0, maxWidth: 3)
        #expect(written == 3)
        #expect(frame.line(0) == "##abc#####")
    }

    @Test func putWithZeroOrNegativeMaxWidthWritesNothing() {
        var frame = Frame(width: 5, height: 1)
        #expect(frame.put("abc", x: 1, y: 0, maxWidth: 0) == 0)
        #expect(frame.put("abc", x: 1, y: 0, maxWidth: -3) == 0)
        #expect(frame.line(0) == "     ")
    }

    @Test func aWideCharacterThatDoesNotFitAtTheRightEdgeBecomesASpace() {
        var frame = Frame(width: 5, height: 1)
        frame.put("#####", x: 0, y: 0)
        let written = frame.put("ab山", x: 2, y: 0)
        #expect(written == 3)
        #expect(frame.line(0) == "##ab ")
        #expect(frame[4, 0].text == " ")
        Self.expectNoOrphanHalves(frame)
    }

    @Test func aWideCharacterThatDoesNotFitInMaxWidthBecomesASpace() {
        var frame = Frame(width: 8, height: 1)
        frame.put("########", x: 0, y: 0)
        let written = frame.put("a🎉b", x: 1, y: 0, maxWidth: 2)
        #expect(written == 2)
        #expect(frame.line(0) == "#a #####")
        Self.expectNoOrphanHalves(frame)
    }

    @Test func aWideCharacterAcrossTheLeftEdgeLeavesNoHalf() {
        var frame = Frame(width: 4, height: 1)
        frame.put("####", x: 0, y: 0)
        frame.put("山a", x: -1, y: 0)
        #expect(frame.line(0) == " a##")
        Self.expectNoOrphanHalves(frame)
    }

    @Test func aWideCharacterTakesTwoCells() {
        var frame = Frame(width: 6, height: 1)
        let written = frame.put("山田", x: 1, y: 0)
        #expect(written == 4)
        #expect(frame[1, 0].text == "山")
        #expect(frame[2, 0].isContinuation)
        #expect(frame[3, 0].text == "田")
        #expect(frame[4, 0].isContinuation)
        #expect(frame.line(0) == " 山田 ")
        #expect(CellWidth.of(frame.line(0)) == 6)
    }

    @Test func overwritingTheRightHalfOfAWideCharacterBlanksItsLeftHalf() {
        var frame = Frame(width: 5, height: 1)
        frame.put("山", x: 1, y: 0)
        frame.put("x", x: 2, y: 0)
        #expect(frame.line(0) == "  x  ")
        Self.expectNoOrphanHalves(frame)
    }

    @Test func overwritingTheLeftHalfOfAWideCharacterBlanksItsRightHalf() {
        var frame = Frame(width: 5, height: 1)
        frame.put("山", x: 1, y: 0)
        frame.put("x", x: 1, y: 0)
        #expect(frame.line(0) == " x   ")
        Self.expectNoOrphanHalves(frame)
    }

    @Test func aWideCharacterOverlappingAnotherOneByHalf() {
        var frame = Frame(width: 6, height: 1)
        frame.put("山", x: 1, y: 0)
        frame.put("田", x: 2, y: 0)
        #expect(frame.line(0) == "  田  ")
        Self.expectNoOrphanHalves(frame)
        frame.put("川", x: 1, y: 0)
        #expect(frame.line(0) == " 川   ")
        Self.expectNoOrphanHalves(frame)
    }

    @Test func fillOverHalfAWideCharacterBlanksTheOtherHalf() {
        var frame = Frame(width: 6, height: 2)
        frame.put("山田川", x: 0, y: 0)
        frame.fill(Rect(x: 1, y: 0, width: 1, height: 2), with: "*")
        #expect(frame.line(0) == " *田川")
        Self.expectNoOrphanHalves(frame)
    }

    /// Random text with wide and narrow characters, written at random places: the frame never
    /// holds half a wide character, and every row stays exactly `width` cells.
    @Test func randomWritesNeverLeaveHalfAWideCharacter() {
        var generator = SeededGenerator(seed: 0x5C_2EE7)
        let alphabet: [String] = ["a", "b", "山", "田", "🎉", "é", "e\u{301}", "\u{1B}", "\u{200B}", " "]
        for width in [1, 2, 3, 7, 12] {
            var frame = Frame(width: width, height: 2)
            for _ in 0..<300 {
                let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }.joined()
                let x = Int.random(in: -3...width, using: &generator)
                let maxWidth: Int? = Bool.random(using: &generator) ? Int.random(in: 0...5, using: &generator) : nil
                frame.put(text, x: x, y: Int.random(in: 0...1, using: &generator), maxWidth: maxWidth)
            }
            Self.expectNoOrphanHalves(frame)
            for y in 0..<frame.height { #expect(CellWidth.of(frame.line(y)) == width) }
        }
    }

    // MARK: - Untrusted text

    @Test func putStoresOnlySanitisedText() {
        var frame = Frame(width: 30, height: 1)
        frame.put("a\u{1B}[31mb\u{7}c\u{202E}d\u{200B}e\u{9B}f\nz", x: 0, y: 0)
        let scalars = frame.cells.flatMap(\.text.unicodeScalars)
        #expect(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!scalars.contains("\u{202E}"))
        #expect(!scalars.contains("\u{200B}"))
        #expect(frame.text == "a\u{FFFD}[31mb\u{FFFD}cde\u{FFFD}f z")
    }

    @Test func asciiGlyphsShowNonASCIITextAsQuestionMarksOnePerCell() {
        var frame = Frame(width: 10, height: 1, glyphs: .ascii)
        frame.put("é山🎉a", x: 0, y: 0)
        #expect(frame.line(0) == "?????a    ")
    }

    // MARK: - box

    @Test func boxDrawsCornersAndEdges() {
        var frame = Frame(width: 6, height: 4)
        frame.box(frame.bounds, style: .plain)
        #expect(
            frame.text == """
                ┌────┐
                │    │
                │    │
                └────┘
                """)
    }

    @Test func boxInASCII() {
        var frame = Frame(width: 10, height: 3, glyphs: .ascii)
        frame.box(Rect(x: 1, y: 0, width: 8, height: 3), title: "Hi")
        #expect(
            frame.text == """
                 +- Hi -+
                 |      |
                 +------+
                """)
    }

    @Test func boxTitleIsCutInsideTheBorder() {
        var frame = Frame(width: 12, height: 3)
        frame.box(frame.bounds, title: "Leaderboard of the week")
        #expect(frame.line(0) == "┌─ Leaderb─┐")
        #expect(frame[11, 0].text == "┐")
    }

    @Test func boxTooSmallDrawsNothing() {
        var frame = Frame(width: 4, height: 4)
        frame.box(Rect(x: 0, y: 0, width: 1, height: 4))
        frame.box(Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(frame.text == "\n\n\n")
    }

    // MARK: - text

    @Test func textDropsTrailingSpacesAndContinuationCells() {
        var frame = Frame(width: 8, height: 2)
        frame.put("山 a", x: 1, y: 1)
        #expect(frame.text == "\n 山 a")
    }

    // MARK: - changes(from:)

    @Test func anUnchangedFrameGivesNoRuns() {
        var frame = Frame(width: 20, height: 3)
        frame.put("hello 山田", x: 2, y: 1, style: Style(.accent))
        #expect(frame.changes(from: frame).isEmpty)
    }

    @Test func oneChangedCellGivesOneRunCoveringIt() {
        var previous = Frame(width: 20, height: 3)
        previous.put("hello world", x: 2, y: 1)
        var next = previous
        next.put("W", x: 8, y: 1)
        let runs = next.changes(from: previous)
        #expect(runs == [FrameRun(x: 8, y: 1, text: "W", cellCount: 1, style: .plain)])
    }

    @Test func aChangedStyleAloneIsAChange() {
        let previous = Frame(width: 5, height: 1)
        var next = previous
        next.put(" ", x: 4, y: 0, style: Style(.accent, reverse: true))
        #expect(
            next.changes(from: previous) == [FrameRun(x: 4, y: 0, text: " ", cellCount: 1, style: next[4, 0].style)])
    }

    @Test(arguments: [nil, Frame(width: 3, height: 2), Frame(width: 4, height: 3)])
    func noPreviousFrameOrAnotherSizeRepaintsEverything(previous: Frame?) {
        var frame = Frame(width: 4, height: 2)
        frame.put("ab", x: 0, y: 0)
        frame.put("山", x: 2, y: 1, style: Style(.accent))
        let runs = frame.changes(from: previous)
        #expect(runs.reduce(0) { $0 + $1.cellCount } == 8)
        for y in 0..<2 {
            let row = runs.filter { $0.y == y }
            #expect(row.first?.x == 0)
            #expect(row.map(\.text).joined() == frame.line(y))
        }
    }

    @Test func aChangedWideCharacterGivesARunFromItsLeftHalf() {
        var previous = Frame(width: 10, height: 1)
        previous.put("ab山cd", x: 0, y: 0)
        var next = previous
        next.put("田", x: 2, y: 0)
        let runs = next.changes(from: previous)
        #expect(runs == [FrameRun(x: 2, y: 0, text: "田", cellCount: 2, style: .plain)])
    }

    @Test func aRestyledWideCharacterGivesARunCoveringBothHalves() {
        var previous = Frame(width: 10, height: 1)
        previous.put("山", x: 4, y: 0)
        var next = previous
        next.put("山", x: 4, y: 0, style: Style(.warning))
        #expect(next.changes(from: previous) == [FrameRun(x: 4, y: 0, text: "山", cellCount: 2, style: Style(.warning))])
    }

    @Test func aWideCharacterMovedByOneCell() {
        var previous = Frame(width: 6, height: 1)
        previous.put("山", x: 1, y: 0)
        var next = Frame(width: 6, height: 1)
        next.put("山", x: 2, y: 0)
        let runs = next.changes(from: previous)
        #expect(runs == [FrameRun(x: 1, y: 0, text: " 山", cellCount: 3, style: .plain)])
        #expect(Self.apply(runs, to: previous) == next)
    }

    /// Writing the runs over the previous frame, as the terminal does, gives the new frame.
    @Test func applyingTheRunsToThePreviousFrameGivesTheNewOne() {
        var generator = SeededGenerator(seed: 42)
        let pieces = ["a", "bc", "山", "田中", "🎉", " ", "x y"]
        let styles = [Style.plain, Style(.accent), Style(.warning, bold: true)]
        var previous = Frame(width: 9, height: 3)
        for _ in 0..<200 {
            var next = previous
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                next.put(
                    pieces.randomElement(using: &generator)!, x: Int.random(in: -1...9, using: &generator),
                    y: Int.random(in: 0...2, using: &generator), style: styles.randomElement(using: &generator)!)
            }
            let runs = next.changes(from: previous)
            for run in runs {
                #expect(CellWidth.of(run.text) == run.cellCount)
                #expect(!next[run.x, run.y].isContinuation, "a run starts at the left half of a wide character")
            }
            #expect(Self.apply(runs, to: previous) == next)
            if next == previous { #expect(runs.isEmpty) }
            previous = next
        }
    }

    private static func apply(_ runs: [FrameRun], to frame: Frame) -> Frame {
        var result = frame
        for run in runs { result.put(run.text, x: run.x, y: run.y, style: run.style) }
        return result
    }

    // MARK: - ProgressBar

    @Test(arguments: [Glyphs.unicode, Glyphs.ascii])
    func progressBarPiecesAlwaysFillTheBarWidth(glyphs: Glyphs) {
        for width in 0...40 {
            for step in 0...300 {
                let fraction = -1 + Double(step) / 100
                let (filled, empty) = ProgressBar.pieces(fraction: fraction, width: width, glyphs: glyphs)
                #expect(
                    CellWidth.of(filled) + CellWidth.of(empty) == width, "fraction \(fraction), width \(width)")
            }
        }
        for fraction in [Double.nan, .infinity, -.infinity, 0.999_999, 1e-9] {
            let (filled, empty) = ProgressBar.pieces(fraction: fraction, width: 10, glyphs: glyphs)
            #expect(CellWidth.of(filled) + CellWidth.of(empty) == 10, "fraction \(fraction)")
        }
    }

    @Test func progressBarEnds() {
        let glyphs = Glyphs.unicode
        #expect(ProgressBar.pieces(fraction: -0.5, width: 4, glyphs: glyphs) == ("", "░░░░"))
        #expect(ProgressBar.pieces(fraction: 0, width: 4, glyphs: glyphs) == ("", "░░░░"))
        #expect(ProgressBar.pieces(fraction: 0.5, width: 4, glyphs: glyphs) == ("██", "░░"))
        #expect(ProgressBar.pieces(fraction: 1, width: 4, glyphs: glyphs) == ("████", ""))
        #expect(ProgressBar.pieces(fraction: 1.7, width: 4, glyphs: glyphs) == ("████", ""))
        #expect(ProgressBar.pieces(fraction: 0.5 + 1.0 / 32, width: 4, glyphs: glyphs) == ("██▏", "░"))
        #expect(ProgressBar.pieces(fraction: 0.6, width: 4, glyphs: .ascii) == ("##", ".."))
    }
}
