import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The group screen (`g`) as text: in a group and not, and each of its modes.
@Suite struct GroupGoldenTests {
    typealias Fixtures = DashboardFixtures

    private func check(
        _ model: ScreensModel, _ name: String, glyphs: Glyphs = .unicode,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Frame {
        let frame = FrameChecks.render(model, glyphs: glyphs, sourceLocation: sourceLocation)
        Golden.check(
            frame.text, named: "group-\(name)-\(model.width)x\(model.height)", sourceLocation: sourceLocation)
        return frame
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func inAGroupWithMembers(width: Int, height: Int) {
        let model = SetupFixtures.groupScreen(Fixtures.bigGroup(), width: width, height: height)
        let frame = check(model, "members")
        #expect(frame.text.contains("K7Q2XM"))
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func aGroupTallerThanTheScreen(width: Int, height: Int) {
        let model = SetupFixtures.groupScreen(Fixtures.crowd(40), width: width, height: height)
        _ = check(model, "crowd")
    }

    @Test func notInAGroup() {
        let model = SetupFixtures.groupScreen(Fixtures.solo(), width: 80, height: 24)
        _ = check(model, "none")
    }

    @Test func confirmingLeave() {
        var model = SetupFixtures.groupScreen(Fixtures.bigGroup(), width: 80, height: 24)
        #expect(model.handle(.character("l")) == nil)
        _ = check(model, "leave")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func joinCodeWithAnError(width: Int, height: Int) {
        var model = SetupFixtures.groupScreen(Fixtures.bigGroup(), width: width, height: height)
        SetupFixtures.press([.character("j")] + SetupFixtures.keys("K7Q") + [.enter], on: &model)
        _ = check(model, "join-error")
    }

    @Test func choosingTheGoalOfANewGroup() {
        var model = SetupFixtures.groupScreen(Fixtures.solo(), width: 80, height: 24)
        SetupFixtures.press([.character("c"), .right, .right], on: &model)
        _ = check(model, "create")
    }
}
