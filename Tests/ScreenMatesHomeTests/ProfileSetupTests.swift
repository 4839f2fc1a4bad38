import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesHomeTestSupport
import Testing

@Suite struct ProfileSetupTests {
    let catalogue = AppCatalogue(
        apps: [
            TrackedApp(id: "tiktok", name: "TikTok", bundleID: "com.zhiliaoapp.musically", category: .vice),
            TrackedApp(id: "kindle", name: "Kindle", bundleID: "com.amazon.Lassen", category: .productive),
        ], defaultVice: [], defaultProductive: [])

    @Test func catalogueAppsAreFoundByNameOrIdAndOthersBecomeCustomApps() throws {
        let apps = try ProfileSetup.resolveApps(
            ["tiktok", "KINDLE", "My Game", "TikTok"], category: .vice, catalogue: catalogue)
        #expect(apps.map(\.id) == ["tiktok", "kindle", "custom-my-game"])
        #expect(apps.allSatisfy { $0.category == .vice })
        #expect(apps[2].name == "My Game")
    }

    @Test func unsafeOrOverlongAppNamesAreRefused() {
        for bad in ["evil\u{1B}[2J", "rtl\u{202E}x", "", String(repeating: "a", count: 41)] {
            #expect(throws: AppError.self) {
                try ProfileSetup.resolveApps([bad], category: .vice, catalogue: catalogue)
            }
        }
    }

    @Test func theAssetsShippedWithTheProgramLoad() throws {
        let assets = AssetCatalog(directory: RepositoryAssets.directory)
        let catalogue = try assets.appCatalogue()
        #expect(catalogue.apps.count >= 20)
        #expect(!catalogue.defaultVice.isEmpty && catalogue.defaultVice.allSatisfy { $0.category == .vice })
        #expect(
            !catalogue.defaultProductive.isEmpty
                && catalogue.defaultProductive.allSatisfy { $0.category == .productive })
        #expect(Set(catalogue.apps.map(\.id)).count == catalogue.apps.count)
        for name in assets.themeNames() { _ = try assets.theme(named: name) }
        #expect(Set(assets.themeNames()).isSuperset(of: ["terminal", "dark", "light"]))
        guard case .profile = try assets.scenario("typical-day") else {
            Issue.record("typical-day should be a usage profile")
            return
        }
        guard case .script = try assets.scenario("evening-binge") else {
            Issue.record("evening-binge should be a scripted day")
            return
        }
        #expect(throws: AppError.self) { try assets.theme(named: "nope") }
    }
}
