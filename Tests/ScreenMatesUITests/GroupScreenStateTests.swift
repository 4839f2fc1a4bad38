import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The group screen (`g`) through the dashboard model: opening and closing it, its modes, the
/// effects they ask for and how an outcome comes back.
@Suite struct GroupScreenStateTests {
    typealias Fixtures = DashboardFixtures

    private func keys(_ text: String) -> [KeyInput] { SetupFixtures.keys(text) }

    @discardableResult
    private func press(_ keys: [KeyInput], on model: inout ScreensModel) -> [DashboardRequest?] {
        SetupFixtures.press(keys, on: &model)
    }

    private func inGroup() -> ScreensModel {
        SetupFixtures.groupScreen(Fixtures.bigGroup(), width: 80, height: 24)
    }

    private func solo() -> ScreensModel { SetupFixtures.groupScreen(Fixtures.solo(), width: 80, height: 24) }

    // MARK: - Opening and closing

    @Test func gOpensTheGroupScreenFromTheDashboardAndGClosesIt() {
        var model = Fixtures.model(Fixtures.bigGroup(), width: 80, height: 24)
        #expect(press([.character("g")], on: &model) == [nil])
        #expect(model.screen == .group)
        #expect(model.screenKind == .group)
        #expect(model.groupScreen == GroupScreenState())
        #expect(press([.character("g")], on: &model) == [nil])
        #expect(model.screen == .dashboard)
    }

    @Test func escapeGoesBackToTheDashboard() {
        var model = inGroup()
        #expect(press([.escape], on: &model) == [nil])
        #expect(model.screen == .dashboard)
    }

    @Test func qQuitsFromTheGroupScreen() {
        var model = inGroup()
        #expect(model.handle(.character("q")) == .quit)
    }

    @Test func theDashboardsOwnKeysDoNothingOnTheGroupScreen() {
        var model = inGroup()
        let before = model
        #expect(
            press([.character("r"), .tab, .character("k"), .pageDown, .character("?"), .character("h")], on: &model)
                .allSatisfy {
                    $0 == nil
                })
        #expect(model == before)
    }

    @Test func reopeningStartsFromTheOverview() {
        var model = inGroup()
        press([.character("j")] + keys("K7") + [.enter], on: &model)
        #expect(model.groupScreen.message != nil)
        press([.escape, .escape, .character("g")], on: &model)
        #expect(model.screen == .group)
        #expect(model.groupScreen == GroupScreenState())
    }

    // MARK: - Create

    @Test func cOpensTheGoalAndLeftRightChangeItWithinOneTo96() {
        var model = solo()
        #expect(press([.character("c")], on: &model) == [nil])
        #expect(model.groupScreen.mode == .createGoal)
        press([.right, .character("+"), .left], on: &model)
        #expect(model.groupScreen.goal == 9)
        press(Array(repeating: .left, count: 20) + [.character("-")], on: &model)
        #expect(model.groupScreen.goal == 1)
        press(Array(repeating: .right, count: 120), on: &model)
        #expect(model.groupScreen.goal == 96)
    }

    @Test func enterCreatesTheGroupAndWaits() {
        var model = solo()
        press([.character("c"), .right], on: &model)
        #expect(press([.enter], on: &model) == [.createGroup(goal: 9)])
        #expect(model.groupScreen.busy)
    }

    @Test func escapeCancelsCreating() {
        var model = inGroup()
        press([.character("c"), .right], on: &model)
        #expect(press([.escape], on: &model) == [nil])
        #expect(model.groupScreen.mode == .overview)
        #expect(model.screen == .group)
        // A second Esc leaves the screen.
        press([.escape], on: &model)
        #expect(model.screen == .dashboard)
    }

    @Test func qDoesNotQuitWhileChoosingTheGoal() {
        var model = solo()
        press([.character("c")], on: &model)
        #expect(press([.character("q"), .character("g")], on: &model) == [nil, nil])
        #expect(model.screen == .group)
        #expect(model.groupScreen.mode == .createGoal)
    }

    // MARK: - Join

    @Test func jOpensTheCodeInputAndTypingGoesIntoIt() {
        var model = inGroup()
        #expect(press([.character("j")], on: &model) == [nil])
        #expect(model.groupScreen.mode == .joinCode)
        #expect(press(keys("qgclj"), on: &model).allSatisfy { $0 == nil })
        #expect(model.groupScreen.codeInput.text == "qgclj")
        #expect(model.screen == .group)
        press([.control("u")], on: &model)
        #expect(model.groupScreen.codeInput.text.isEmpty)
    }

    @Test func enterWithAValidCodeJoinsItNormalised() throws {
        var model = inGroup()
        press([.character("j")] + keys("ab cd-ef"), on: &model)
        #expect(press([.enter], on: &model) == [.joinGroup(try GroupCode(validating: "ABCDEF"))])
        #expect(model.groupScreen.busy)
    }

    @Test(arguments: [("", GroupCodeError.empty.message), ("K7Q", GroupCodeError.wrongLength(3).message)])
    func enterWithAnInvalidCodeShowsWhyAndAsksForNothing(typed: String, message: String) {
        var model = inGroup()
        press([.character("j")] + keys(typed), on: &model)
        #expect(press([.enter], on: &model) == [nil])
        #expect(model.groupScreen.message == message)
        #expect(model.groupScreen.messageIsError)
        #expect(model.groupScreen.mode == .joinCode)
        #expect(!model.groupScreen.busy)
        // Typing clears the message.
        press([.character("2")], on: &model)
        #expect(model.groupScreen.message == nil)
    }

    @Test func escapeCancelsJoiningAndItsMessage() {
        var model = inGroup()
        press([.character("j")] + keys("K7") + [.enter], on: &model)
        #expect(press([.escape], on: &model) == [nil])
        #expect(model.groupScreen.mode == .overview)
        #expect(model.groupScreen.message == nil)
        #expect(model.screen == .group)
    }

    // MARK: - Leave

    @Test func lInAGroupAsksAndYLeaves() {
        var model = inGroup()
        #expect(press([.character("l")], on: &model) == [nil])
        #expect(model.groupScreen.mode == .confirmLeave)
        #expect(press([.character("y")], on: &model) == [.leaveGroup])
        #expect(model.groupScreen.mode == .overview)
        #expect(model.groupScreen.busy)
    }

    @Test func capitalYAlsoLeaves() {
        var model = inGroup()
        #expect(press([.character("l"), .character("Y")], on: &model) == [nil, .leaveGroup])
    }

    @Test(arguments: [KeyInput.character("n"), .escape, .enter, .character("q"), .character("l")])
    func anyOtherKeyKeepsTheGroup(key: KeyInput) {
        var model = inGroup()
        press([.character("l")], on: &model)
        #expect(press([key], on: &model) == [nil])
        #expect(model.groupScreen.mode == .overview)
        #expect(!model.groupScreen.busy)
        #expect(model.screen == .group)
    }

    @Test func lWithoutAGroupSaysSoAndAsksForNothing() {
        var model = solo()
        #expect(press([.character("l")], on: &model) == [nil])
        #expect(model.groupScreen.mode == .overview)
        #expect(model.groupScreen.message == "You are not in a group.")
        #expect(model.groupScreen.messageIsError)
        #expect(press([.character("y")], on: &model) == [nil])
    }

    // MARK: - Waiting and outcomes

    @Test func whileBusyEveryKeyIsIgnored() {
        var model = inGroup()
        press([.character("l"), .character("y")], on: &model)
        let waiting = model
        let effects = press([.character("q"), .escape, .character("g"), .character("j"), .enter], on: &model)
        #expect(effects.allSatisfy { $0 == nil })
        #expect(model == waiting)
    }

    @Test func successResetsTheModeAndTheCode() throws {
        var model = inGroup()
        press([.character("j")] + keys("ABCDEF") + [.enter], on: &model)
        model.groupScreen.finished("Joined group ABCDEF: 3 members.", error: false)
        #expect(!model.groupScreen.busy)
        #expect(model.groupScreen.mode == .overview)
        #expect(model.groupScreen.codeInput.text.isEmpty)
        #expect(model.groupScreen.message == "Joined group ABCDEF: 3 members.")
        #expect(!model.groupScreen.messageIsError)
        // The keys work again.
        #expect(model.handle(.character("q")) == .quit)
    }

    @Test func failureKeepsTheModeAndWhatWasTyped() throws {
        var model = inGroup()
        press([.character("j")] + keys("ABCDEF") + [.enter], on: &model)
        model.groupScreen.finished("No group has the code ABCDEF.", error: true)
        #expect(!model.groupScreen.busy)
        #expect(model.groupScreen.mode == .joinCode)
        #expect(model.groupScreen.codeInput.text == "ABCDEF")
        #expect(model.groupScreen.message == "No group has the code ABCDEF.")
        #expect(model.groupScreen.messageIsError)
        press([.backspace, .character("G")], on: &model)
        #expect(press([.enter], on: &model) == [.joinGroup(try GroupCode(validating: "ABCDEG"))])
    }

    @Test func aFailedCreateKeepsTheGoal() {
        var model = solo()
        press([.character("c"), .right, .enter], on: &model)
        model.groupScreen.finished("The group store is locked.", error: true)
        #expect(model.groupScreen.mode == .createGoal)
        #expect(model.groupScreen.goal == 9)
        #expect(press([.enter], on: &model) == [.createGroup(goal: 9)])
    }

    // MARK: - What the screen shows

    @Test func theFooterShowsTheGroupScreensKeysFromTheKeyTable() {
        let model = SetupFixtures.groupScreen(Fixtures.bigGroup(), width: 120, height: 40)
        let footer = ScreenRenderer.render(model).line(39)
        let bindings = KeyTable.standard.footer(for: .group)
        #expect(bindings.map(\.action).contains(.leaveGroup))
        for binding in bindings {
            #expect(footer.contains("\(binding.label) \(binding.summary)"), "\(binding.label) missing")
        }
        // Nothing that belongs to the dashboard alone.
        #expect(!footer.contains("refresh") && !footer.contains("today/week/month"))
    }

    @Test func whileTypingTheFooterShowsTheKeysThatFinishTheEntryNotQuit() {
        var model = inGroup()
        press([.character("j")], on: &model)
        let footer = ScreenRenderer.render(model).line(23)
        #expect(footer.contains("enter join") && footer.contains("esc cancel"))
        #expect(!footer.contains("quit"))
        press([.escape, .character("l")], on: &model)
        let confirm = ScreenRenderer.render(model).line(23)
        #expect(confirm.contains("y leave") && !confirm.contains("quit"))
    }

    @Test func withoutDataTheScreenStillDrawsItsBoxAndKeys() {
        let model = SetupFixtures.groupScreen(nil, width: 80, height: 24)
        let frame = ScreenRenderer.render(model)
        #expect(frame.text.contains("Group"))
        #expect(frame.text.contains("Loading"))
        #expect(frame.line(23).contains("q quit"))
    }

    @Test(arguments: [(80, 24), (60, 16), (100, 30), (120, 40), (200, 60)])
    func theCodeAlwaysShowsInPlainLetters(width: Int, height: Int) {
        for data in [Fixtures.bigGroup(), Fixtures.crowd(40)] {
            var model = SetupFixtures.groupScreen(data, width: width, height: height)
            for keys in [[], [KeyInput.character("j")], [.escape, .character("l")]] {
                press(keys, on: &model)
                let frame = FrameChecks.render(model)
                #expect(frame.text.contains("Code K7Q2XM"), "\(width)×\(height)")
                #expect(frame.text.contains("Members"), "\(width)×\(height)")
            }
        }
    }
}
