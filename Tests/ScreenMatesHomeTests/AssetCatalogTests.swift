import Foundation
import ScreenMatesHome
import Testing

/// Where the binary looks for its assets, wherever it is installed: the places, in order, and the
/// first that holds an `apps.json` wins.
@Suite struct AssetCatalogTests {
    @Test func thePlacesComeNextToTheBinaryThenTheUsersThenTheSystems() {
        let places = AssetCatalog.candidates(
            executable: "/usr/bin/screenmates", environment: ["HOME": "/home/ana"])
        #expect(
            places == [
                "/usr/bin/../share/screenmates/assets", "/usr/bin/../share/screenmates", "/usr/bin/assets",
                "/usr/assets", "/assets", "/home/ana/.local/share/screenmates/assets", "/usr/share/screenmates",
            ])
        let xdg = AssetCatalog.candidates(
            executable: "/opt/sm/bin/screenmates", environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/data/ana"])
        #expect(xdg.suffix(2) == ["/data/ana/screenmates/assets", "/usr/share/screenmates"])
        // A relative XDG_DATA_HOME is ignored, as the XDG rules say.
        let relative = AssetCatalog.candidates(
            executable: "/opt/sm/bin/screenmates", environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "data"])
        #expect(relative.suffix(2) == ["/home/ana/.local/share/screenmates/assets", "/usr/share/screenmates"])
    }

    @Test func anExplicitFolderWinsAndMustHoldTheCatalogue() throws {
        let folder = NSTemporaryDirectory() + "screenmates-assets-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: AppError.self) { try AssetCatalog.locate(environment: ["SCREENMATES_ASSETS": folder]) }
        try Data("[]".utf8).write(to: URL(fileURLWithPath: folder + "/apps.json"))
        #expect(try AssetCatalog.locate(environment: ["SCREENMATES_ASSETS": folder]).directory == folder)
    }
}
