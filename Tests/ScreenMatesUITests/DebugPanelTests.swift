import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The debug panel: opened with D, its actions are effects the session carries out.
@Suite struct DebugPanelTests {
    typealias Fixtures = DashboardFixtures

    @Test func dOpensThePanelAndItsKeysAskForTheirActions() {
        var model = Fixtures.model(Fixtures.solo(), width: 80, height: 24)
        #expect(model.handle(.character("t")) == nil, "t does nothing on the dashboard")
        _ = model.handle(.character("D"))
        #expect(model.screen == .debug)
        #expect(model.handle(.character("t")) == .sendTestNotice)
        #expect(model.handle(.character("u")) == .syncNow)
        #expect(model.handle(.character("e")) == .simulateEndOfDay)
        _ = model.handle(.escape)
        #expect(model.screen == .dashboard)
    }

    @Test func thePanelListsWhatTheSessionGathered() {
        var data = Fixtures.solo()
        data.debugLines = [
            .init(label: "user id", value: "a1b2c3d4"), .init(label: "database", value: "/home/ana/local.sqlite"),
            .init(label: "  recorded", value: "2026-11-21 limit-75"),
        ]
        let frame = ScreenRenderer.render(Fixtures.model(data, width: 80, height: 24, screen: .debug))
        FrameChecks.expectFitsWidth(frame)
        Golden.check(frame.text, named: "debug-80x24")
        #expect(frame.text.contains("user id") && frame.text.contains("a1b2c3d4"))
        #expect(frame.text.contains("t test notice"))
        #expect(frame.text.contains("x clear local data"))
    }

    /// Rows of the group store left out as they cannot be right, as the session names them
    /// (`DashboardEffectRunner.leftOutLines`): a long reason goes on under itself.
    @Test func rowsLeftOutAreNamedUnderTheFacts() {
        var data = Fixtures.solo()
        data.debugLines = [
            ("user id", "a1b2c3d4"), ("group store state", "online"),
            ("left out", "3 rows that cannot be right, not shown"),
            (
                "  member",
                "bo234567: display_name \"bo cheats\": A display name may use only letters, digits and underscores; remove space."
            ),
            ("  challenge", "vzxq58: At most 0 to 96 blocks a day; -1 is not."),
            ("  day total", "cy345678 2026-11-17: vice_blocks is 9223372036854775807; a day holds 0 to 1440"),
        ].map { DashboardContent.DebugLine(label: $0.0, value: $0.1) }
        let frame = ScreenRenderer.render(Fixtures.model(data, width: 80, height: 24, screen: .debug))
        FrameChecks.expectFitsWidth(frame)
        Golden.check(frame.text, named: "debug-left-out-80x24")
        #expect(frame.text.contains("left out"))
    }

    /// The session refreshes the data (without the panel's facts), then adds the facts: the
    /// place the panel was scrolled to survives that.
    @Test func theScrollSurvivesARefresh() {
        var data = Fixtures.solo()
        data.debugLines = SmallScreenGoldenTests.debugLines()
        var model = Fixtures.model(data, width: 60, height: 16, screen: .debug)
        for _ in 0..<3 { _ = model.handle(.character("j")) }
        #expect(model.debugPanel.scroll == 3)
        model.update(Fixtures.solo())
        model.data?.debugLines = SmallScreenGoldenTests.debugLines()
        #expect(model.debugPanel.scroll == 3)
        #expect(ScreenRenderer.render(model).text.contains("↑/k 3 above"))
    }

    /// `x` only asks; `y` is what clears, and any other key keeps everything.
    @Test func clearingAsksFirstAndOnlyYClears() {
        var model = Fixtures.model(Fixtures.solo(), width: 80, height: 24, screen: .debug)
        #expect(model.handle(.character("x")) == nil)
        #expect(model.debugPanel.confirmingClear)
        #expect(model.handle(.character("n")) == nil)
        #expect(!model.debugPanel.confirmingClear)
        #expect(model.debugPanel.message == "Nothing was cleared.")
        #expect(model.screen == .debug, "the key that declined does nothing else")
        _ = model.handle(.character("x"))
        #expect(model.handle(.escape) == nil, "esc declines too")
        #expect(model.screen == .debug)
        _ = model.handle(.character("x"))
        #expect(model.handle(.character("q")) == nil, "q declines rather than quits")
        _ = model.handle(.character("x"))
        #expect(model.handle(.character("y")) == .clearLocalData)
        #expect(!model.debugPanel.confirmingClear)
    }

    @Test func theConfirmationSaysWhatGoesAndWhatStays() {
        var data = Fixtures.solo()
        data.group = .init(code: "ABC234", memberCount: 3)
        var model = Fixtures.model(data, width: 80, height: 24, screen: .debug)
        _ = model.handle(.character("x"))
        let frame = ScreenRenderer.render(model)
        FrameChecks.expectFitsWidth(frame)
        Golden.check(frame.text, named: "debug-confirm-clear-80x24")
        #expect(frame.text.contains("Clear all local data?"))
        #expect(frame.text.contains("Your user id stays."))
        #expect(frame.text.contains("group ABC234"))
        #expect(frame.text.contains("y clear it all"))
    }

    @Test func theOutcomeOfAnActionShowsBelowTheFacts() {
        var data = Fixtures.solo()
        data.debugLines = [.init(label: "user id", value: "a1b2c3d4")]
        var model = Fixtures.model(data, width: 80, height: 24, screen: .debug)
        model.debugPanel.finished("The day is over: the clock moved to 00:00 and 2026-11-22 has begun.", error: false)
        let lines = ScreenRenderer.render(model).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1].contains("a1b2c3d4"))
        #expect(lines[3].contains("The day is over"), "after a blank row:\n\(lines.joined(separator: "\n"))")
    }

    /// A toast shows on the dashboard only: on the panel it would hide the facts and the outcome.
    @Test func aToastWaitsForTheDashboard() {
        var data = Fixtures.solo()
        data.toast = .init(
            notice: .init(at: Fixtures.now, title: "A new day", body: "Yesterday: 3 of 8 blocks.", severity: .info),
            fading: false)
        let panel = ScreenRenderer.render(Fixtures.model(data, width: 80, height: 24, screen: .debug)).text
        #expect(!panel.contains("A new day"))
        let dashboard = ScreenRenderer.render(Fixtures.model(data, width: 80, height: 24)).text
        #expect(dashboard.contains("A new day"))
    }
}
