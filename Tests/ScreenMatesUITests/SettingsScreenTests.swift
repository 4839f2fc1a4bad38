import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The history and settings screens as states: which keys open and close them, and what the
/// settings screen asks the application to save.
@Suite struct SettingsScreenTests {
    typealias Fixtures = DashboardFixtures

    private func dashboard() -> ScreensModel {
        Fixtures.model(HistoryFixtures.solo(), width: 80, height: 24)
    }

    @discardableResult
    private func press(_ keys: [KeyInput], on model: inout ScreensModel) -> [DashboardRequest?] {
        keys.map { model.handle($0) }
    }

    @Test func hOpensTheHistoryAndEscOrHGoesBack() {
        var model = dashboard()
        press([.character("h")], on: &model)
        #expect(model.screen == .history)
        press([.escape], on: &model)
        #expect(model.screen == .dashboard)
        press([.character("h"), .character("h")], on: &model)
        #expect(model.screen == .dashboard)
        press([.character("h"), .character("q")], on: &model)
        #expect(model.handle(.character("q")) == .quit)
    }

    @Test func sOpensTheSettingsOnTheFirstAppAndEscGoesBack() {
        var model = dashboard()
        press([.character("s")], on: &model)
        #expect(model.screen == .settings)
        #expect(model.settingsScreen?.selectedRow == .app(id: "tiktok", category: .vice))
        press([.escape], on: &model)
        #expect(model.screen == .dashboard)
    }

    @Test func withoutSettingsYetTheScreenDoesNotOpen() {
        var data = HistoryFixtures.solo()
        data.settings = nil
        var model = Fixtures.model(data, width: 80, height: 24)
        press([.character("s")], on: &model)
        #expect(model.screen == .dashboard)
    }

    /// Moves the selection to `row`.
    private func select(_ row: SettingsScreenState.Row, on model: inout ScreensModel) {
        let steps = model.settingsScreen!.rows.firstIndex(of: row)! - model.settingsScreen!.selection
        press(Array(repeating: steps < 0 ? KeyInput.up : .down, count: abs(steps)), on: &model)
        #expect(model.settingsScreen?.selectedRow == row)
    }

    @Test func switchesFlipWithEnterAndAreSentAtOnce() {
        var model = dashboard()
        press([.character("s")], on: &model)
        select(.notificationBell, on: &model)
        #expect(model.handle(.enter) == .changeSettings(.notificationBell(false)))
        #expect(model.settingsScreen?.settings.notificationBell == false)
        #expect(model.handle(.character(" ")) == .changeSettings(.notificationBell(true)))
        select(.notificationDesktop, on: &model)
        #expect(model.handle(.enter) == .changeSettings(.notificationDesktop(true)))
    }

    @Test func arrowsStepNumbersWithinTheirRanges() {
        var model = dashboard()
        press([.character("s")], on: &model)
        select(.dayStartHour, on: &model)
        #expect(model.handle(.right) == .changeSettings(.dayStartHour(5)))
        #expect(model.handle(.left) == .changeSettings(.dayStartHour(4)))
        select(.blockMinutes, on: &model)
        #expect(model.handle(.right) == .changeSettings(.blockMinutes(20)))
        select(.exchangeRate, on: &model)
        #expect(model.handle(.left) == .changeSettings(.exchangeRate(0.9)))
        // At the end of its range a number stays, and nothing is sent.
        select(.dailyGoal, on: &model)
        for _ in 0..<7 { _ = model.handle(.left) }
        #expect(model.settingsScreen?.settings.rules.dailyGoalBlocks == 1)
        #expect(model.handle(.left) == nil)
        select(.theme, on: &model)
        #expect(model.handle(.right) == .changeSettings(.theme(.dark)))
        #expect(model.handle(.left) == .changeSettings(.theme(.terminal)))
        #expect(model.handle(.left) == .changeSettings(.theme(.light)))
    }

    @Test func appsAreHiddenRemovedAndAdded() {
        var model = dashboard()
        press([.character("s")], on: &model)
        #expect(model.handle(.enter) == .changeSettings(.setHidden(id: "tiktok", hidden: true)))
        #expect(model.handle(.character("d")) == .changeSettings(.removeApp(id: "tiktok")))
        #expect(model.settingsScreen?.settings.viceApps.map(\.id) == ["youtube"])
        // The last app of a list stays: the monitor needs one.
        #expect(model.handle(.character("d")) == nil)
        #expect(model.settingsScreen?.messageIsError == true)
        // Enter on "add" opens the name; typing takes every key, q included; enter sends it.
        select(.addApp(.productive), on: &model)
        press([.enter] + "Quip".map(KeyInput.character), on: &model)
        #expect(model.screen == .settings)
        #expect(model.settingsScreen?.nameInput.text == "Quip")
        #expect(model.handle(.enter) == .changeSettings(.addApp(name: "Quip", category: .productive)))
        #expect(model.settingsScreen?.adding == nil)
        // Esc while typing cancels the name, not the screen.
        press([.enter, .character("x"), .escape], on: &model)
        #expect(model.screen == .settings)
        #expect(model.settingsScreen?.adding == nil)
    }

    @Test func savedSettingsFromTheStoreReplaceTheShownOnes() {
        var model = dashboard()
        press([.character("s")], on: &model)
        var data = HistoryFixtures.solo()
        data.settings?.dayStartHour = 6
        model.update(data)
        #expect(model.settingsScreen?.settings.dayStartHour == 6)
    }
}
