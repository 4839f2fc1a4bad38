import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The history and settings screens, and the dashboard's sparkline, compared as text with the
/// files in `Goldens/`.
@Suite struct HistoryGoldenTests {
    typealias Fixtures = DashboardFixtures

    @Test(arguments: [(80, 24), (120, 40)])
    func historyScreen(width: Int, height: Int) {
        let model = Fixtures.model(HistoryFixtures.solo(), width: width, height: height, screen: .history)
        let frame = FrameChecks.render(model)
        Golden.check(frame.text, named: "history-\(width)x\(height)")
        // Every day of the week is labelled, the over-limit days say so, the totals are there.
        for label in ["Thu 12", "Fri 13", "Sat 14", "Sun 15", "Mon 16", "Tue 17", "today 18"] {
            #expect(frame.text.contains(label), "missing \(label)")
        }
        #expect(frame.text.contains("9/8") && frame.text.contains("12/8") && frame.text.contains("6/8"))
        #expect(frame.text.contains("this week") && frame.text.contains("this month"))
        #expect(frame.text.contains("best") && frame.text.contains("over the limit"))
    }

    @Test func historyScreenInASCII() {
        let model = Fixtures.model(HistoryFixtures.solo(), width: 80, height: 24, screen: .history)
        let frame = FrameChecks.render(model, glyphs: .ascii)
        Golden.check(frame.text, named: "history-80x24-ascii")
        FrameChecks.expectASCII(frame.text)
    }

    @Test func historyScreenAtTheMinimumSize() {
        let model = Fixtures.model(
            HistoryFixtures.solo(), width: ScreensModel.minimumWidth, height: ScreensModel.minimumHeight,
            screen: .history)
        let frame = FrameChecks.render(model)
        #expect(frame.text.contains("History"))
        #expect(frame.text.contains("today"))
        #expect(frame.text.contains("week") && frame.text.contains("month"))
    }

    @Test func theBarsStandInProportionToTheBlocks() {
        let model = Fixtures.model(HistoryFixtures.solo(), width: 120, height: 40, screen: .history)
        let frame = FrameChecks.render(model)
        let lines = frame.text.split(separator: "\n").map(String.init)
        // The tallest bar (12 blocks, Tuesday) reaches the top row of the plot; the empty day
        // (Sunday, 0 blocks) has no bar at all.
        let captionRow = lines.firstIndex { $0.contains("Tue 17") }!
        let tueColumn = lines[captionRow].distance(
            from: lines[captionRow].startIndex, to: lines[captionRow].range(of: "Tue 17")!.lowerBound)
        func cell(_ row: Int, _ column: Int) -> Character {
            let line = Array(lines[row])
            return column < line.count ? line[column] : " "
        }
        let barHeight = (0..<captionRow).reversed().prefix { cell($0, tueColumn + 2) == "█" }.count
        let sunRow = lines[captionRow].range(of: "Sun 15")!.lowerBound
        let sunColumn = lines[captionRow].distance(from: lines[captionRow].startIndex, to: sunRow)
        #expect(barHeight >= 20, "Tuesday's bar is \(barHeight) rows")
        #expect(cell(captionRow - 1, sunColumn + 2) == " ")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func settingsScreen(width: Int, height: Int) {
        var model = Fixtures.model(HistoryFixtures.solo(), width: width, height: height)
        #expect(model.handle(.character("s")) == nil)
        #expect(model.screen == .settings)
        let frame = FrameChecks.render(model)
        Golden.check(frame.text, named: "settings-\(width)x\(height)")
        for text in ["TikTok", "YouTube", "hidden", "Kindle", "terminal bell", "theme", "04:00", "15 min"] {
            #expect(frame.text.contains(text), "missing \(text)")
        }
    }

    @Test func settingsScreenAddingAnApp() {
        var model = Fixtures.model(HistoryFixtures.solo(), width: 80, height: 24)
        // The "add a vice app" row is the third: two vice apps above it.
        for key in [KeyInput.character("s"), .down, .down, .enter] + "Candy".map(KeyInput.character) {
            _ = model.handle(key)
        }
        let frame = FrameChecks.render(model)
        Golden.check(frame.text, named: "settings-adding-80x24")
        #expect(frame.text.contains("New vice app: Candy"))
        #expect(frame.text.contains("enter add") && frame.text.contains("esc cancel"))
    }

    @Test func theDashboardShowsTheLastSevenDaysAsASparkline() {
        let frame = FrameChecks.render(Fixtures.model(HistoryFixtures.solo(), width: 80, height: 24))
        Golden.check(frame.text, named: "dashboard-sparkline-80x24")
        // 3, 9, 5, 0, 8, 12 and today's 6 on a scale of 12.
        #expect(frame.text.contains("last 7d ▃▆▄▁▆█▅"))
        let ascii = FrameChecks.render(Fixtures.model(HistoryFixtures.solo(), width: 80, height: 24), glyphs: .ascii)
        FrameChecks.expectASCII(ascii.text)
        #expect(ascii.text.contains("last 7d "))
    }
}
