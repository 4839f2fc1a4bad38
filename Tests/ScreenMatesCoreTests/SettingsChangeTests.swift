import ScreenMatesCore
import ScreenMatesTestSupport
import Testing

@Suite struct SettingsChangeTests {
    let settings = UserSettings(
        userID: UserID("abcd2345"),
        apps: [
            TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice),
            TrackedApp(id: "kindle", name: "Kindle", bundleID: "k", category: .productive),
        ])

    @Test func changesApplyAndNumbersStayInRange() {
        var changed = settings
        SettingsChange.dayStartHour(30).apply(to: &changed)
        #expect(changed.dayStartHour == 23)
        SettingsChange.blockMinutes(0).apply(to: &changed)
        #expect(changed.rules.blockMinutes == 1)
        SettingsChange.exchangeRate(12).apply(to: &changed)
        #expect(changed.rules.exchangeRate == 10)
        SettingsChange.setHidden(id: "tiktok", hidden: true).apply(to: &changed)
        #expect(changed.apps.first?.hidden == true)
        SettingsChange.removeApp(id: "kindle").apply(to: &changed)
        #expect(changed.apps.map(\.id) == ["tiktok"])
        SettingsChange.theme(.light).apply(to: &changed)
        #expect(changed.theme == .light)
    }

    /// A change to a list is saved with the lists, or the file (which wins) would undo it.
    @Test func listChangesAreSavedUnderTheListKeys() {
        #expect(SettingsChange.removeApp(id: "x").keys.contains(.viceApps))
        #expect(SettingsChange.removeApp(id: "x").keys.contains(.productiveApps))
        #expect(SettingsChange.addApp(name: "x", category: .productive).keys.contains(.productiveApps))
        #expect(SettingsChange.setHidden(id: "x", hidden: true).keys == [.hiddenApps])
        #expect(SettingsChange.dayStartHour(4).keys == [.dayStartHour])
    }
}
