import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// Whole screens compared as text with the files in `Goldens/`. Set
/// `SCREENMATES_UPDATE_GOLDENS=1` to rewrite them, then read the diff before keeping it.
@Suite struct DashboardGoldenTests {
    typealias Fixtures = DashboardFixtures

    private func render(_ model: ScreensModel, glyphs: Glyphs = .unicode) -> Frame {
        let frame = ScreenRenderer.render(model, glyphs: glyphs)
        FrameChecks.expectFitsWidth(frame)
        return frame
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func soloDashboardInTheWarningState(width: Int, height: Int) {
        let data = Fixtures.solo()
        #expect(data.today.state == .warning)
        let frame = render(Fixtures.model(data, width: width, height: height))
        Golden.check(frame.text, named: "dashboard-solo-\(width)x\(height)")
    }

    @Test func bigGroupWithWideAndHostileNames() {
        let frame = render(Fixtures.model(Fixtures.bigGroup(), width: 120, height: 40))
        Golden.check(frame.text, named: "dashboard-group-120x40")
        FrameChecks.expectNoUnsafeCharacters(frame.text)
        // Every member fits on screen: the wide, long and hostile names are all drawn, cut or made inert.
        #expect(frame.text.contains("山田太郎"))
        #expect(frame.text.contains("🎉party"))
        #expect(frame.text.contains("Maximilian_Alexander") && frame.text.contains("…"))
        #expect(frame.text.contains("\u{FFFD}[31mred\u{FFFD}[0m"))
        #expect(frame.text.contains("evil\u{FFFD}bell"))
        #expect(frame.text.contains("rtltxt"))
        #expect(frame.text.contains("zerowidth"))
        // The idle member is listed last, unranked, as idle rather than as zero blocks.
        let idleRow = frame.text.split(separator: "\n").first { $0.contains("idle_ivy") }.map(String.init) ?? ""
        #expect(idleRow.contains("   - idle_ivy") && idleRow.contains(" idle ") && idleRow.contains("never"))
        #expect(!idleRow.contains("0/8"))
    }

    @Test func bigGroupInASCII() {
        let frame = render(Fixtures.model(Fixtures.bigGroup(), width: 80, height: 24), glyphs: .ascii)
        Golden.check(frame.text, named: "dashboard-group-80x24-ascii")
        let nonASCII = frame.text.unicodeScalars.filter { !$0.isASCII }
        #expect(nonASCII.isEmpty, "non-ASCII characters: \(nonASCII.map { "U+\(String($0.value, radix: 16))" })")
        FrameChecks.expectNoUnsafeCharacters(frame.text)
    }

    @Test func overTheLimit() {
        let data = Fixtures.overLimit()
        #expect(data.today.state == .over)
        let frame = render(Fixtures.model(data, width: 80, height: 24))
        Golden.check(frame.text, named: "dashboard-over-80x24")
    }

    @Test func helpScreen() {
        var model = Fixtures.model(Fixtures.solo(), width: 80, height: 24, screen: .help)
        let frame = render(model)
        Golden.check(frame.text, named: "help-80x24")
        // Every key is on the first page at the usual size; what the numbers mean follows
        // below it, and the title says so.
        #expect(frame.line(0).contains("↓/j more"))
        for _ in 0..<10 { _ = model.handle(.character("j")) }
        let end = render(model)
        Golden.check(end.text, named: "help-end-80x24")
        // Nothing is cut: every explanation is there to its last word.
        for (title, text) in HelpView.explanations {
            #expect(end.text.contains(title))
            #expect(end.text.contains(String(text.split(separator: " ").last!)), "\(title) is cut")
        }
    }

    @Test(arguments: [(59, 16), (60, 15), (20, 5)])
    func belowTheMinimumSize(width: Int, height: Int) {
        let model = Fixtures.model(Fixtures.solo(), width: width, height: height)
        #expect(model.isTooSmall)
        let frame = render(model)
        #expect(frame.text.contains("Terminal too small"))
        Golden.check(frame.text, named: "too-small-\(width)x\(height)")
    }

    @Test func atTheMinimumSizeTheDashboardIsDrawn() {
        let model = Fixtures.model(
            Fixtures.solo(), width: ScreensModel.minimumWidth, height: ScreensModel.minimumHeight)
        #expect(!model.isTooSmall)
        let frame = render(model)
        #expect(!frame.text.contains("too small"))
        #expect(frame.line(0).hasPrefix(" ada_l · no group "))
        #expect(frame.text.contains("Leaderboard"))
        #expect(frame.text.contains("ada_l (you)"))
        Golden.check(frame.text, named: "dashboard-solo-60x16")
    }

    @Test func scrolledLeaderboard() {
        var model = Fixtures.model(Fixtures.crowd(40), width: 80, height: 24)
        for key in [KeyInput.character("j"), .character("j"), .pageDown, .down] { #expect(model.handle(key) == nil) }
        let rows = DashboardLayout(width: 80, height: 24).leaderboardRows
        #expect(model.scroll == 3 + (rows - 1))
        let frame = render(model)
        #expect(frame.text.contains("\(model.scroll) above"))
        #expect(frame.text.contains("\(40 - model.scroll - rows) more"))
        Golden.check(frame.text, named: "dashboard-scrolled-80x24")
    }
}
