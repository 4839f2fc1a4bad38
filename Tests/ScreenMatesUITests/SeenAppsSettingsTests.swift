import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The settings screen's list of applications a usage source saw that match none of the apps:
/// ← files one as vice, → as productive, and it leaves the list at once.
@Suite struct SeenAppsSettingsTests {
    typealias Fixtures = DashboardFixtures
    static let seen = [
        SettingsScreenState.SeenApp(name: "Slack", seconds: 5400),
        SettingsScreenState.SeenApp(name: "evil\u{1B}[2J", seconds: 60),
    ]

    private func settingsOpen(seen: [SettingsScreenState.SeenApp]? = Self.seen) -> ScreensModel {
        var data = HistoryFixtures.solo()
        var model = Fixtures.model(data, width: 80, height: 30)
        _ = model.handle(.character("s"))
        data.seenApps = seen
        model.update(data)
        return model
    }

    private func select(_ row: SettingsScreenState.Row, on model: inout ScreensModel) {
        let steps = model.settingsScreen!.rows.firstIndex(of: row)! - model.settingsScreen!.selection
        for _ in 0..<abs(steps) { _ = model.handle(steps < 0 ? .up : .down) }
        #expect(model.settingsScreen?.selectedRow == row)
    }

    @Test func seenApplicationsAreListedAfterTheAppsWithTheirTimeAndKeys() {
        let model = settingsOpen()
        let rows = model.settingsScreen!.rows
        let productiveAdd = rows.firstIndex(of: .addApp(.productive))!
        #expect(rows[productiveAdd + 1] == .seenApp(name: "Slack"))
        #expect(rows[productiveAdd + 2] == .seenApp(name: "evil\u{1B}[2J"))
        #expect(rows[productiveAdd + 3] == .notifications)
        let text = FrameChecks.render(model).text
        #expect(text.contains("Slack"), "\(text)")
        #expect(text.contains("1h 30m"), "\(text)")
        #expect(text.contains("← vice"), "\(text)")
        // A hostile name is drawn harmless (render checks every cell for control characters).
        #expect(!text.contains("\u{1B}"))
    }

    @Test func leftFilesAsViceRightAsProductiveAndTheRowGoesAtOnce() {
        var model = settingsOpen()
        select(.seenApp(name: "Slack"), on: &model)
        #expect(model.handle(.left) == .changeSettings(.addApp(name: "Slack", category: .vice)))
        #expect(model.settingsScreen?.rows.contains(.seenApp(name: "Slack")) == false)
        select(.seenApp(name: "evil\u{1B}[2J"), on: &model)
        #expect(model.handle(.right) == .changeSettings(.addApp(name: "evil\u{1B}[2J", category: .productive)))
        #expect(model.settingsScreen?.seen.isEmpty == true)
    }

    @Test func enterSaysWhichKeyFilesWhereAndSendsNothing() {
        var model = settingsOpen()
        select(.seenApp(name: "Slack"), on: &model)
        #expect(model.handle(.enter) == nil)
        #expect(model.settingsScreen?.message?.contains("→ as a productive one") == true)
    }

    @Test func withNothingSeenTheScreenIsAsBefore() {
        let model = settingsOpen(seen: nil)
        #expect(!model.settingsScreen!.rows.contains { if case .seenApp = $0 { true } else { false } })
        let empty = settingsOpen(seen: [])
        #expect(empty.settingsScreen!.rows == model.settingsScreen!.rows)
    }
}
