import Foundation
import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// Every screen at the smallest size the dashboard accepts (60×16), and at 80×24 where other
/// tests do not draw it: each reads whole — no word, number or key cut — and a screen taller
/// than the terminal scrolls, with a mark saying so.
@Suite struct SmallScreenGoldenTests {
    typealias Fixtures = DashboardFixtures

    static let width = ScreensModel.minimumWidth
    static let height = ScreensModel.minimumHeight

    private func check(
        _ model: ScreensModel, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Frame {
        let frame = FrameChecks.render(model, sourceLocation: sourceLocation)
        Golden.check(frame.text, named: "\(name)-\(model.width)x\(model.height)", sourceLocation: sourceLocation)
        return frame
    }

    /// What the session gathers for the debug panel, with the long paths and instants of a
    /// real home.
    static func debugLines() -> [DashboardContent.DebugLine] {
        let home = "/tmp/screenmates-e2e-5C1F7E2A-8D43-4B7E-9A0C-2E6B1D9F3A71"
        return [
            ("user id", "a1b2c3d4"), ("name", "ada_l"), ("data directory", home),
            ("database", home + "/local.sqlite"), ("log", home + "/screenmates.log"),
            ("group store", home + "/group-store.sqlite"), ("group", "K7Q2XM · goal 8"),
            ("app clock", "2026-03-18T14:05:00Z · ×1.0"), ("today", "2026-03-18 · resets 2026-03-19T00:00:00Z"),
            ("events applied", "30"), ("last sync", "2026-03-18T14:04:58Z"), ("days not synced", "0"),
            ("group store state", "online"), ("notices today", "1 shown, 2 counted as sent"),
            ("next notice due", "2026-03-18T22:00:00Z"), ("  recorded", "2026-03-18 limit-75"),
            ("  recorded", "2026-03-18 limit-90"), ("  recorded", "2026-03-18 limit-over"),
        ].map { DashboardContent.DebugLine(label: $0.0, value: $0.1) }
    }

    static func groupData() -> DashboardContent {
        var data = Fixtures.bigGroup()
        data.history = HistoryFixtures.overview()
        data.settings = HistoryFixtures.settings()
        data.settings?.group = GroupMembership(code: try! GroupCode(validating: "K7Q2XM"), dailyGoalBlocks: 8)
        data.debugLines = debugLines()
        return data
    }

    // MARK: - Header

    /// The code to share is on the header of every screen that has one, at 60 columns too.
    @Test(arguments: [ScreensModel.Screen.dashboard, .history, .settings])
    func theGroupCodeIsOnTheHeader(screen: ScreensModel.Screen) {
        var model = Fixtures.model(Self.groupData(), width: Self.width, height: Self.height)
        if screen == .settings { _ = model.handle(.character("s")) } else { model.screen = screen }
        let header = FrameChecks.render(model).line(0)
        #expect(header.contains(" ada_l · K7Q2XM "), "\(header)")
        #expect(header.hasSuffix(" resets in 9h 55m "), "\(header)")
    }

    @Test func dashboardInAGroup() {
        let frame = check(Fixtures.model(Self.groupData(), width: Self.width, height: Self.height), "small-dashboard")
        #expect(frame.line(0).contains("K7Q2XM"))
        // The leaderboard holds more members than fit, and says so.
        #expect(frame.text.contains("↓ 7 more"), "\(frame.text)")
    }

    // MARK: - History

    @Test func historyReadsWhole() {
        let frame = check(
            Fixtures.model(HistoryFixtures.solo(), width: Self.width, height: Self.height, screen: .history),
            "small-history")
        let text = frame.text
        // The totals: every label and value whole, with the headings of their columns.
        for row in [
            "│ blocks         26       58 │", "│ spent      6h 30m  14h 30m │", "│ earned         3h  14h 15m │",
            "│ over        1 day   2 days │",
        ] {
            #expect(text.contains(row), "missing \(row) in\n\(text)")
        }
        #expect(text.contains("week") && text.contains("month"))
        // The streaks, with today apart: finished days only are kept or over.
        for row in [
            "current  4 days", "best     9 days", "today    at risk", "over     2 days of 17", "kept     15 days of 17",
        ] {
            #expect(text.contains(row), "missing \(row) in\n\(text)")
        }
        for day in ["Thu 12", "today", "12/8", "6/8"] { #expect(text.contains(day), "missing \(day)") }
        #expect(frame.line(Self.height - 1).contains("esc back"))
    }

    /// Today is not over until the reset: on the first day nothing is kept or over yet, and a
    /// day over the limit already is not counted as over before it ends.
    @Test(arguments: [(60, 16), (80, 24)])
    func todayIsNeitherKeptNorOverBeforeItEnds(width: Int, height: Int) {
        let day = Fixtures.day
        for blocks in [3, 11] {
            var data = Fixtures.solo()
            data.today = Fixtures.today(viceBlocks: blocks)
            data.history = HistoryOverview(history: [], today: data.today, trackingStart: day)
            let text = FrameChecks.render(Fixtures.model(data, width: width, height: height, screen: .history)).text
            #expect(!text.contains("1 day of 1"), "\(blocks) blocks:\n\(text)")
            #expect(!text.contains("of 1"), "\(blocks) blocks:\n\(text)")
            #expect(text.contains("none yet"), "\(blocks) blocks:\n\(text)")
            #expect(text.contains(blocks > 8 ? "broken" : "on track"), "\(blocks) blocks:\n\(text)")
            // The week's and month's days over the limit are finished days too.
            #expect(!text.contains("1 day "), "\(blocks) blocks:\n\(text)")
        }
        // The next day, yesterday's 11 blocks count as a day over the limit.
        var data = Fixtures.solo()
        data.history = HistoryOverview(
            history: [
                DayRecord(
                    date: day.adding(days: -1), viceBlocks: 11, productiveBlocks: 0, goalBlocks: 8, earnedSeconds: 0,
                    spentSeconds: 11 * 900, endingBalanceSeconds: 0, overdraftSeconds: 11 * 900, streakAfter: 0,
                    synced: true)
            ], today: data.today, trackingStart: day.adding(days: -1))
        let text = FrameChecks.render(Fixtures.model(data, width: width, height: height, screen: .history)).text
        #expect(text.contains("1 day of 1") && text.contains("0 days of 1"), "\(text)")
    }

    // MARK: - Debug panel

    @Test func debugPanelScrollsWithAMarkAndCutsNothing() {
        var model = Fixtures.model(Self.groupData(), width: Self.width, height: Self.height, screen: .debug)
        var frame = check(model, "small-debug")
        #expect(frame.text.contains("↓/j"), "no scroll mark:\n\(frame.text)")
        #expect(frame.line(Self.height - 2).contains("more"), "the mark is on the box's bottom edge")
        let footer = frame.line(Self.height - 1)
        for hint in ["q quit", "t test", "u sync", "e end day", "x clear", "esc back"] {
            #expect(footer.contains(hint), "\(hint) missing: \(footer)")
        }
        // Scrolled through, every fact is there whole: each value is its rows put together.
        var rows: [String] = []
        var previous = -1
        while previous != model.debugPanel.scroll {
            previous = model.debugPanel.scroll
            let frame = FrameChecks.render(model)
            rows += (1..<Self.height - 2).map { frame.line($0) }
            _ = model.handle(.character("j"))
        }
        #expect(model.debugPanel.scroll > 0)
        frame = check(model, "small-debug-end")
        #expect(frame.text.contains("↑/k"), "no mark for the rows above:\n\(frame.text)")
        #expect(frame.text.contains("limit-over"))
        let shown = rows.joined().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "│", with: "")
        for line in Self.debugLines() {
            #expect(
                shown.contains(line.value.replacingOccurrences(of: " ", with: "")), "\(line.label) cut:\n\(rows)")
        }
        // Back up to the top.
        for _ in 0..<30 { _ = model.handle(.character("k")) }
        #expect(model.debugPanel.scroll == 0)
    }

    @Test func debugPanelConfirmationReadsWhole() {
        var model = Fixtures.model(Self.groupData(), width: Self.width, height: Self.height, screen: .debug)
        _ = model.handle(.character("x"))
        let frame = check(model, "small-debug-confirm")
        let text = frame.text.replacingOccurrences(of: "│", with: " ")
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(words.contains("Your user id stays."), "\(frame.text)")
        #expect(words.contains("group K7Q2XM"), "\(frame.text)")
        #expect(words.contains("Press y to clear it all; any other key keeps everything."), "\(frame.text)")
        #expect(!frame.text.contains("…"))
    }

    // MARK: - Group screen

    @Test func groupScreenInAGroup() {
        var model = SetupFixtures.groupScreen(Self.groupData(), width: Self.width, height: Self.height)
        var frame = check(model, "small-group")
        let footer = frame.line(Self.height - 1)
        #expect(footer.contains("l leave") && footer.contains("esc back"), "\(footer)")
        #expect(!footer.contains("g group"), "the group screen offers itself: \(footer)")
        #expect(frame.text.contains("K7Q2XM"))
        #expect(frame.text.contains("↓ 4 more"), "\(frame.text)")
        // ↓ scrolls the members the box cannot hold (j joins there), as far as the last one.
        for _ in 0..<20 { #expect(model.handle(.down) == nil) }
        #expect(model.groupScreen.memberScroll == 4)
        frame = check(model, "small-group-scrolled")
        #expect(frame.text.contains("idle_ivy") && frame.text.contains("4 above"), "\(frame.text)")
        #expect(!frame.text.contains("more ─"), "\(frame.text)")
        for _ in 0..<20 { _ = model.handle(.up) }
        #expect(model.groupScreen.memberScroll == 0)
        #expect(model.screen == .group)
    }

    /// Outside a group there is nothing to leave, and the screen does not offer it.
    @Test(arguments: [(60, 16), (80, 24)])
    func groupScreenWithoutAGroup(width: Int, height: Int) {
        let model = SetupFixtures.groupScreen(Fixtures.solo(), width: width, height: height)
        let frame = FrameChecks.render(model)
        if width == Self.width { Golden.check(frame.text, named: "small-group-none-\(width)x\(height)") }
        let footer = frame.line(height - 1)
        #expect(!footer.contains("leave"), "\(footer)")
        #expect(!footer.contains("g group"), "\(footer)")
        #expect(footer.contains("c create") && footer.contains("j join") && footer.contains("esc back"), "\(footer)")
        #expect(!frame.text.contains("  l  "), "no key to leave in the body either")
    }

    @Test func groupScreenConfirmingLeave() {
        var model = SetupFixtures.groupScreen(Self.groupData(), width: Self.width, height: Self.height)
        _ = model.handle(.character("l"))
        let frame = check(model, "small-group-leave")
        #expect(frame.text.contains("Leave group K7Q2XM?"))
        #expect(frame.line(Self.height - 1).contains("any other key stay"))
    }

    // MARK: - Settings

    @Test func settingsReadWholeAndScroll() {
        var model = Fixtures.model(Self.groupData(), width: Self.width, height: Self.height)
        _ = model.handle(.character("s"))
        var frame = check(model, "small-settings")
        #expect(frame.text.contains("hidden: never shared"), "\(frame.text)")
        #expect(frame.text.contains("↓"), "no mark for the rows below:\n\(frame.text)")
        let footer = frame.line(Self.height - 1)
        for hint in ["q quit", "enter", "d remove", "esc back"] { #expect(footer.contains(hint), "\(footer)") }
        #expect(!footer.contains("s settings"), "\(footer)")
        for _ in 0..<20 { _ = model.handle(.down) }
        frame = check(model, "small-settings-end")
        #expect(frame.text.contains("group's goal of 8 applies"), "\(frame.text)")
        #expect(frame.text.contains("earned per productive minute"), "\(frame.text)")
        #expect(frame.text.contains("↑"), "no mark for the rows above:\n\(frame.text)")
    }

    // MARK: - Notices

    @Test(arguments: [(60, 16), (80, 24)])
    func noticesLogWrapsAndScrolls(width: Int, height: Int) {
        var data = Self.groupData()
        data.notices = Array(repeating: NoticeGoldenTests.lines(data), count: 4).flatMap { $0 }
        var model = Fixtures.model(data, width: width, height: height, screen: .notices)
        let frame = check(model, "small-notices")
        #expect(!frame.text.contains("…"), "a notice was cut:\n\(frame.text)")
        #expect(frame.text.contains("↓/j"), "no scroll mark:\n\(frame.text)")
        let words = frame.text.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        #expect(
            words.contains("9 of 8 blocks used; today's streak is broken. Tomorrow starts afresh."), "\(frame.text)")
        for _ in 0..<40 { _ = model.handle(.character("j")) }
        #expect(model.noticeScroll > 0)
        let end = FrameChecks.render(model)
        #expect(end.text.contains("↑/k"), "\(end.text)")
        #expect(end.text.contains("ana has used 12 of 8 blocks today."), "the last notice:\n\(end.text)")
    }

    @Test func emptyNoticesLogReadsWhole() {
        let frame = check(
            Fixtures.model(Fixtures.solo(), width: Self.width, height: Self.height, screen: .notices),
            "small-notices-empty")
        #expect(frame.text.contains("from your group."), "\(frame.text)")
    }

    // MARK: - Help

    @Test func helpScrollsWithAMark() {
        var model = Fixtures.model(Fixtures.solo(), width: Self.width, height: Self.height, screen: .help)
        var frame = check(model, "small-help")
        #expect(frame.line(0).contains("↓/j more"))
        for _ in 0..<40 { _ = model.handle(.character("j")) }
        frame = check(model, "small-help-end")
        #expect(frame.line(0).contains("↑/k back"))
        #expect(frame.text.contains("Leaderboard"))
    }

    // MARK: - Toast

    /// A notice with a long title and text wraps in its toast rather than being cut.
    @Test(arguments: [(60, 16), (80, 24)])
    func aLongToastWraps(width: Int, height: Int) {
        var data = Self.groupData()
        let notice = DashboardContent.NoticeLine(
            at: data.now, title: "Maximilian_Alexander went over the limit",
            body: "Maximilian_Alexander has used 12 of 8 blocks today; yesterday: 11 of 8 blocks, over the limit.",
            severity: .alarm)
        data.notices = [notice]
        data.toast = .init(notice: notice, fading: false)
        let frame = check(Fixtures.model(data, width: width, height: height), "small-toast")
        // Every line of the toast, whole (the leaderboard under it cuts a long name of its own).
        for line in [
            "│ ! Maximilian_Alexander went over the limit       │",
            "│ Maximilian_Alexander has used 12 of 8 blocks     │",
            "│ today; yesterday: 11 of 8 blocks, over the       │",
            "│ limit.                                           │",
        ] {
            #expect(frame.text.contains(line), "missing \(line):\n\(frame.text)")
        }
    }

    // MARK: - First run

    @Test func setupStepsReadWhole() {
        var done = SetupFixtures.groupStep()
        _ = done.handle(.enter)
        done.groupSucceeded(code: "K7Q2XM", created: true, memberCount: 1)
        let steps: [(String, SetupFlow)] = [
            ("apps", SetupFixtures.appsPicked()), ("name", SetupFixtures.nameStep(typed: "ada l")),
            ("group", SetupFixtures.groupStep()), ("code", SetupFixtures.codeStep(typed: "K7Q")), ("done", done),
        ]
        for (name, flow) in steps {
            let frame = check(SetupFixtures.model(flow, width: Self.width, height: Self.height), "small-setup-\(name)")
            #expect(!frame.text.contains("…"), "\(name):\n\(frame.text)")
        }
        let apps = FrameChecks.render(SetupFixtures.model(SetupFixtures.appsPicked(), width: Self.width, height: 16))
        #expect(apps.text.contains("↑/↓ move"), "the keys that move are hinted:\n\(apps.text)")
        #expect(apps.text.contains("esc quit"))
    }
}
