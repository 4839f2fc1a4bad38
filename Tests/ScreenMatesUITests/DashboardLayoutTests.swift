import Foundation
import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The dashboard at every size from the minimum up: borders intact, nothing cut in a way that
/// changes its meaning, nothing running into its neighbour, and no size that crashes.
@Suite struct DashboardLayoutTests {
    typealias Fixtures = DashboardFixtures

    static let sizes: [(Int, Int)] = (ScreensModel.minimumWidth...140).flatMap { width in
        [ScreensModel.minimumHeight, 24, 40].map { (width, $0) }
    }

    @Test func leaderboardRowsMatchWhatTheViewDraws() {
        for (width, height) in Self.sizes {
            let layout = DashboardLayout(width: width, height: height)
            #expect(layout.leaderboardRows == layout.leaderboard.height - 3)
            #expect(layout.header.height == 1 && layout.footer.height == 1)
            #expect(layout.footer.maxY == height)
            #expect(layout.balance.maxX == layout.streak.x && layout.streak.maxX == layout.today.x)
            #expect(layout.today.maxX == width)
        }
    }

    @Test(arguments: ["note", "warning"])
    func everySizeKeepsBordersAndWordsWhole(variant: String) {
        let data = variant == "note" ? Fixtures.bigGroup() : Fixtures.overLimit()
        let message = data.warning ?? data.source!
        let percent = "\(data.today.progress.percent)%"
        for (width, height) in Self.sizes {
            let frame = ScreenRenderer.render(Fixtures.model(data, width: width, height: height))
            let size = "\(width)×\(height)"
            FrameTests.expectNoOrphanHalves(frame)
            for y in 0..<height { #expect(CellWidth.of(frame.line(y)) == width, "\(size) row \(y)") }
            let layout = DashboardLayout(width: width, height: height)
            for rect in [layout.balance, layout.streak, layout.today, layout.leaderboard] {
                expectBorder(of: rect, in: frame, size)
            }
            // The local time and the countdown to the reset are in the header at every size.
            #expect(frame.line(0).contains(" 14:05 \(frame.glyphs.bullet) "), "\(size): no time in the header")
            #expect(frame.line(0).hasSuffix(" resets in 9h 55m "), "\(size): no countdown in the header")
            #expect(frame.line(layout.today.y + 1).contains(percent), "\(size): the percent is cut")
            // The message sits after two blank cells: no key hint runs into it, and a long one ends in "…".
            let footer = frame.text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init)!
            let shown = String(footer.components(separatedBy: "  ").last!.drop { $0 == " " })
            #expect(
                shown == message || (shown.hasSuffix("…") && message.hasPrefix(String(shown.dropLast()))),
                "\(size): footer \(footer)")
        }
    }

    @Test func noSizeCrashesAnyScreen() {
        let data = Fixtures.bigGroup()
        var models = [ScreensModel.Screen.dashboard, .help, .group].map {
            Fixtures.model(data, width: 80, height: 24, screen: $0)
        }
        for flow in [SetupFixtures.appsPicked(), SetupFixtures.nameStep(typed: "ada"), SetupFixtures.codeStep()] {
            models.append(SetupFixtures.model(flow, width: 80, height: 24))
        }
        for var model in models {
            for width in 0...130 {
                for height in [0, 1, 2, 5, 15, 16, 17, 24] {
                    model.resize(width: width, height: height)
                    var moved = model
                    _ = moved.handle(.character("j"))
                    for shown in [model, moved] {
                        let frame = ScreenRenderer.render(shown)
                        #expect(frame.width == width && frame.height == height)
                    }
                }
            }
        }
    }

    private func expectBorder(
        of rect: Rect, in frame: Frame, _ size: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let g = frame.glyphs
        let corners = [
            (rect.x, rect.y, g.topLeft), (rect.maxX - 1, rect.y, g.topRight), (rect.x, rect.maxY - 1, g.bottomLeft),
            (rect.maxX - 1, rect.maxY - 1, g.bottomRight),
        ]
        for (x, y, corner) in corners {
            #expect(frame[x, y].text == corner, "\(size): corner at (\(x), \(y))", sourceLocation: sourceLocation)
        }
        for y in rect.y + 1..<rect.maxY - 1 {
            #expect(
                frame[rect.x, y].text == g.vertical && frame[rect.maxX - 1, y].text == g.vertical,
                "\(size): text runs into the border on row \(y)", sourceLocation: sourceLocation)
        }
    }
}
