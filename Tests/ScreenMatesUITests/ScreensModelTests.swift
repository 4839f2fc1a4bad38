import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The update function: keys in, state and effects out, without a terminal.
@Suite struct ScreensModelTests {
    typealias Fixtures = DashboardFixtures

    private func dashboard(members: Int = 40, width: Int = 80, height: Int = 24) -> ScreensModel {
        Fixtures.model(Fixtures.crowd(members), width: width, height: height)
    }

    private func maximumScroll(_ model: ScreensModel) -> Int {
        max(0, model.memberCount - DashboardLayout(width: model.width, height: model.height).leaderboardRows)
    }

    private func typing(_ text: String) -> [KeyInput] { text.map { KeyInput.character($0) } }

    /// Applies `keys` in order and returns the effects they asked for.
    @discardableResult
    private func press(_ keys: [KeyInput], on model: inout ScreensModel) -> [DashboardRequest?] {
        keys.map { model.handle($0) }
    }

    // MARK: - Screens

    @Test func questionMarkOpensHelpAndQuestionMarkGoesBack() {
        var model = dashboard()
        #expect(press([.character("?")], on: &model) == [nil])
        #expect(model.screen == .help)
        #expect(model.screenKind == .help)
        #expect(press([.character("?")], on: &model) == [nil])
        #expect(model.screen == .dashboard)
    }

    @Test func escapeLeavesHelp() {
        var model = dashboard()
        press([.character("?"), .escape], on: &model)
        #expect(model.screen == .dashboard)
        // Esc on the dashboard itself does nothing (in particular it does not quit).
        #expect(press([.escape], on: &model) == [nil])
        #expect(model.screen == .dashboard)
    }

    @Test func qQuitsOnTheDashboardOnHelpAndOnTheTooSmallScreen() {
        var model = dashboard()
        #expect(model.handle(.character("q")) == .quit)
        press([.character("?")], on: &model)
        #expect(model.screen == .help)
        #expect(model.handle(.character("q")) == .quit)
        var small = dashboard(width: 40, height: 10)
        #expect(small.screenKind == .tooSmall)
        #expect(small.handle(.character("q")) == .quit)
    }

    @Test func onlyQuitWorksOnTheTooSmallScreen() {
        var model = dashboard(width: 59, height: 24)
        let effects = press([.character("?"), .character("r"), .tab, .character("j"), .pageDown], on: &model)
        #expect(effects == [nil, nil, nil, nil, nil])
        #expect(model.screen == .dashboard)
        #expect(model.period == .today)
        #expect(model.scroll == 0)
    }

    @Test func setupBelowTheMinimumSizeStillQuitsWithQ() {
        var model = SetupFixtures.model(SetupFixtures.nameStep(), width: 30, height: 10)
        #expect(model.handle(.character("q")) == .quit)
        #expect(model.setup?.nameInput.text.isEmpty == true)
        #expect(model.screen == .setup)
    }

    @Test func rF5AndCtrlLRefresh() {
        var model = dashboard()
        #expect(press([.character("r"), .function(5), .control("l")], on: &model) == [.refresh, .refresh, .refresh])
        #expect(model.screen == .dashboard)
        // Not on the help screen, where the table does not bind it.
        press([.character("?")], on: &model)
        #expect(model.handle(.character("r")) == nil)
    }

    @Test func resizeIsNotAnAction() {
        var model = dashboard()
        #expect(model.handle(.resize) == nil)
        #expect(model.screen == .dashboard)
    }

    // MARK: - Periods

    @Test func tabCyclesThePeriodsAndResetsTheScroll() {
        var model = dashboard()
        var seen: [LeaderboardPeriod] = []
        for _ in 0..<4 {
            press([.character("j"), .character("j")], on: &model)
            #expect(model.scroll == 2)
            press([.tab], on: &model)
            #expect(model.scroll == 0)
            seen.append(model.period)
        }
        #expect(seen == [.week, .month, .today, .week])
    }

    @Test func shiftTabCyclesBackwards() {
        var model = dashboard()
        var seen: [LeaderboardPeriod] = []
        for _ in 0..<3 {
            press([.pageDown], on: &model)
            #expect(model.scroll > 0)
            press([.backTab], on: &model)
            #expect(model.scroll == 0)
            seen.append(model.period)
        }
        #expect(seen == [.month, .week, .today])
    }

    @Test func arrowsAndLAlsoMoveBetweenPeriods() {
        var model = dashboard()
        press([.right], on: &model)
        #expect(model.period == .week)
        press([.character("l")], on: &model)
        #expect(model.period == .month)
        press([.left, .backTab], on: &model)
        #expect(model.period == .today)
    }

    // MARK: - Scrolling

    @Test func scrollingIsClampedToTheMembersThatDoNotFit() {
        var model = dashboard(members: 40)
        let top = maximumScroll(model)
        #expect(top == 40 - 13)
        press([.character("k"), .up, .pageUp], on: &model)
        #expect(model.scroll == 0)
        press(Array(repeating: .character("j"), count: 100), on: &model)
        #expect(model.scroll == top)
        press([.pageDown, .down, .character(" ")], on: &model)
        #expect(model.scroll == top)
        press([.pageUp], on: &model)
        #expect(model.scroll == top - 12)
        press([.pageUp, .pageUp, .pageUp], on: &model)
        #expect(model.scroll == 0)
    }

    @Test func aLeaderboardThatFitsDoesNotScroll() {
        var model = dashboard(members: 5)
        press([.character("j"), .pageDown, .down], on: &model)
        #expect(model.scroll == 0)
        var empty = Fixtures.model(nil, width: 80, height: 24)
        press([.character("j"), .pageDown], on: &empty)
        #expect(empty.scroll == 0)
    }

    @Test func aBiggerScreenClampsTheScroll() {
        var model = dashboard(members: 40)
        press(Array(repeating: .pageDown, count: 10), on: &model)
        #expect(model.scroll == 27)
        model.resize(width: 120, height: 40)
        #expect(model.scroll == maximumScroll(model))
        // 24 member rows at 120×40: the notices pane takes five.
        #expect(model.scroll == 40 - 24)
        model.resize(width: 200, height: 80)
        #expect(model.scroll == 0)
        // Back to a small screen the position stays where it was clamped to, and still scrolls.
        model.resize(width: 80, height: 24)
        #expect(model.scroll == 0)
        press([.character("j")], on: &model)
        #expect(model.scroll == 1)
    }

    @Test func newDataWithFewerMembersClampsTheScroll() {
        var model = dashboard(members: 40)
        press(Array(repeating: .pageDown, count: 10), on: &model)
        model.update(Fixtures.crowd(20))
        #expect(model.scroll == 20 - 13)
        model.update(Fixtures.solo())
        #expect(model.scroll == 0)
    }

    @Test func theScrollPositionShownMatchesTheModel() {
        var model = dashboard(members: 40)
        press([.pageDown], on: &model)
        let frame = ScreenRenderer.render(model)
        let firstRow = frame.line(DashboardLayout(width: 80, height: 24).leaderboard.y + 2)
        // Row `scroll + 1` of the ranking is the first one shown.
        let expected = Fixtures.crowd(40).leaderboard(.today)[model.scroll]
        #expect(firstRow.contains(expected.member.name))
    }

    // MARK: - First-run setup

    @Test func beginSetupShowsTheSetupScreenWithTheFlow() {
        var model = dashboard()
        model.beginSetup(SetupFixtures.fresh())
        #expect(model.screen == .setup)
        #expect(model.setup?.step == .apps)
        #expect(model.screenKind == .dashboard)
    }

    @Test func keysOnTheSetupScreenGoToTheFlowNotTheKeyTable() {
        var model = SetupFixtures.model(SetupFixtures.nameStep(), width: 80, height: 24)
        let effects = press(typing("q?gr") + [.tab, .pageDown], on: &model)
        #expect(effects.allSatisfy { $0 == nil })
        #expect(model.screen == .setup)
        #expect(model.setup?.nameInput.text == "q?gr")
        #expect(model.period == .today && model.scroll == 0)
    }

    @Test func theFlowsEffectsComeOutOfTheModel() throws {
        var model = SetupFixtures.model(SetupFixtures.appsPicked(), width: 80, height: 24)
        let apps = model.setup!.pickedApps
        #expect(model.handle(.enter) == .saveApps(apps))
        press(typing("ada_l"), on: &model)
        #expect(model.handle(.enter) == .saveName(try DisplayName(validating: "ada_l")))
        #expect(model.handle(.enter) == .createGroup(goal: 8))
        #expect(model.setup?.busy == true)
        #expect(model.screen == .setup)
    }

    @Test func finishingTheSetupLeavesItForTheDashboard() {
        var model = SetupFixtures.model(SetupFixtures.groupStep(), width: 80, height: 24)
        #expect(model.handle(.enter) == .createGroup(goal: 8))
        model.setup?.groupSucceeded(code: "K7Q2XM", created: true, memberCount: 1)
        #expect(model.screen == .setup)
        #expect(model.handle(.enter) == .finishSetup)
        #expect(model.screen == .dashboard)
        #expect(model.setup == nil)
        // The dashboard's own keys work again.
        #expect(model.handle(.character("g")) == nil)
        #expect(model.screen == .group)
    }

    @Test func stayingSoloAlsoFinishesTheSetup() {
        var model = SetupFixtures.model(SetupFixtures.groupStep(), width: 80, height: 24)
        #expect(press([.down, .down, .enter], on: &model) == [nil, nil, .finishSetup])
        #expect(model.screen == .dashboard)
        #expect(model.setup == nil)
    }

    @Test func escapeOnTheFirstStepQuitsAndStaysOnTheSetup() {
        var model = SetupFixtures.model(SetupFixtures.fresh(), width: 80, height: 24)
        #expect(model.handle(.escape) == .quit)
        #expect(model.screen == .setup)
    }

    @Test func belowTheMinimumSizeOnlyQuitWorksDuringSetup() {
        var model = SetupFixtures.model(SetupFixtures.appsPicked(), width: 59, height: 24)
        let flow = model.setup
        #expect(press([.enter, .character(" "), .down, .escape], on: &model).allSatisfy { $0 == nil })
        #expect(model.setup == flow)
        #expect(model.handle(.character("q")) == .quit)
        model.resize(width: 80, height: 24)
        #expect(model.handle(.enter) == .saveApps(flow!.pickedApps))
    }

    @Test func aResizeDuringSetupIsNotAKey() {
        var model = SetupFixtures.model(SetupFixtures.nameStep(typed: "ada"), width: 80, height: 24)
        #expect(model.handle(.resize) == nil)
        #expect(model.setup?.nameInput.text == "ada")
    }
}
