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
        #expect(frame.text.contains("t send a test notice"))
    }
}
