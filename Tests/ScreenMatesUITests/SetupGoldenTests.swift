import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The first-run screens as text, one golden file per step and state. Every one is checked to
/// fit the frame, with its box whole and its hints uncut.
@Suite struct SetupGoldenTests {
    typealias Fixtures = SetupFixtures

    private func check(
        _ flow: SetupFlow, _ name: String, width: Int = 80, height: Int = 24, glyphs: Glyphs = .unicode,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Frame {
        let frame = FrameChecks.render(
            Fixtures.model(flow, width: width, height: height), glyphs: glyphs, sourceLocation: sourceLocation)
        Golden.check(frame.text, named: "setup-\(name)-\(width)x\(height)", sourceLocation: sourceLocation)
        return frame
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func appsStepWithTheCursorOnARow(width: Int, height: Int) {
        let flow = Fixtures.appsPicked()
        let frame = check(flow, "apps", width: width, height: height)
        #expect(frame.text.contains("[x] TikTok"))
        #expect(frame.text.contains("[ ] Reddit"))
    }

    @Test func appsStepAddingYourOwn() {
        var flow = Fixtures.appsPicked()
        Fixtures.press([.character("a")] + Fixtures.keys("Steam") + [.right], on: &flow)
        let frame = check(flow, "apps-adding")
        #expect(frame.text.contains("Steam"))
    }

    @Test func appsStepAddingADuplicate() {
        var flow = Fixtures.appsPicked()
        Fixtures.press([.character("a")] + Fixtures.keys("tiktok") + [.enter], on: &flow)
        let frame = check(flow, "apps-duplicate")
        #expect(frame.text.contains("already in the list"))
    }

    @Test func appsStepWithoutAViceApp() {
        var flow = Fixtures.fresh()
        Fixtures.press([.enter], on: &flow)
        _ = check(flow, "apps-none")
    }

    @Test(arguments: [("empty", ""), ("valid", "ada_l")])
    func nameStep(name: String, typed: String) {
        _ = check(Fixtures.nameStep(typed: typed), "name-\(name)")
    }

    @Test func nameStepWithAnInvalidName() {
        var flow = Fixtures.nameStep(typed: "bad name!")
        #expect(flow.handle(.enter) == nil)
        #expect(flow.error != nil)
        _ = check(flow, "name-invalid")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func groupStepWithCreateHighlighted(width: Int, height: Int) {
        _ = check(Fixtures.groupStep(), "group", width: width, height: height)
    }

    @Test func groupStepBusyCreating() {
        var flow = Fixtures.groupStep()
        #expect(flow.handle(.enter) == .createGroup(goal: 8))
        _ = check(flow, "group-busy")
    }

    @Test func groupStepAfterAFailure() {
        var flow = Fixtures.groupStep()
        _ = flow.handle(.enter)
        flow.groupFailed("The group store at /srv/screenmates/groups.sqlite is locked; try again in a moment.")
        _ = check(flow, "group-failed")
    }

    @Test(arguments: [("valid", "k7q2 xm"), ("invalid", "K7Q0X")])
    func codeStep(name: String, typed: String) {
        var flow = Fixtures.codeStep(typed: typed)
        if name == "invalid" { #expect(flow.handle(.enter) == nil) }
        _ = check(flow, "code-\(name)")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func doneStepWithTheBigCode(width: Int, height: Int) {
        var flow = Fixtures.groupStep()
        _ = flow.handle(.enter)
        flow.groupSucceeded(code: "K7Q2XM", created: true, memberCount: 1)
        let frame = check(flow, "done", width: width, height: height)
        #expect(frame.text.contains("K7Q2XM"))
    }

    @Test func doneStepAfterJoining() {
        var flow = Fixtures.codeStep(typed: "K7Q2XM")
        _ = flow.handle(.enter)
        flow.groupSucceeded(code: "K7Q2XM", created: false, memberCount: 5)
        _ = check(flow, "done-joined")
    }

    @Test func doneStepInASCII() {
        var flow = Fixtures.groupStep()
        _ = flow.handle(.enter)
        flow.groupSucceeded(code: "K7Q2XM", created: true, memberCount: 1)
        let frame = check(flow, "done-ascii", glyphs: .ascii)
        FrameChecks.expectASCII(frame.text)
        #expect(frame.text.contains("K7Q2XM"))
    }
}
