import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore
import Testing

/// The config file against the saved settings: the file wins for the keys it sets, a bad line
/// keeps the saved value and is reported, and saving changes only the keys asked for.
@Suite struct SettingsFileTests {
    static let catalogue = AppCatalogue(
        apps: [
            TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice),
            TrackedApp(id: "youtube", name: "YouTube", bundleID: "y", category: .vice),
            TrackedApp(id: "kindle", name: "Kindle", bundleID: "k", category: .productive),
        ], defaultVice: [], defaultProductive: [])

    private func home() throws -> (HomeDirectory, LocalStore) {
        let path = NSTemporaryDirectory() + "screenmates-settings-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let home = HomeDirectory(path: path)
        let store = try home.openStore()
        var settings = try store.createProfileIfNeeded(
            userID: "abcd2345", trackingStart: LocalDate(iso8601: "2026-11-01")!,
            apps: [Self.catalogue.apps[0], Self.catalogue.apps[2]])
        settings.dayStartHour = 3
        try store.updateSettings(settings)
        return (home, store)
    }

    private func write(_ text: String, in home: HomeDirectory) throws {
        try text.write(toFile: SettingsFile(home: home).path, atomically: true, encoding: .utf8)
    }

    @Test func theFileWinsForTheKeysItSetsAndTheStoreKeepsTheRest() throws {
        let (home, store) = try home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        try write(
            """
            theme = light
            block_minutes = 30
            vice_apps = ["YouTube", "Candy Crush"]
            hidden_apps = ["youtube"]
            """, in: home)
        let problems = SettingsFile(home: home).apply(to: store, catalogue: Self.catalogue)
        #expect(problems.isEmpty, "\(problems)")
        let settings = try #require(try store.settings())
        #expect(settings.theme == .light)
        #expect(settings.rules.blockMinutes == 30)
        #expect(settings.dayStartHour == 3, "not in the file: the saved value stays")
        #expect(settings.viceApps.map(\.name) == ["YouTube", "Candy Crush"])
        #expect(settings.productiveApps.map(\.name) == ["Kindle"])
        #expect(settings.apps.filter(\.hidden).map(\.id) == ["youtube"])
    }

    @Test func aBadLineIsReportedWithItsLineAndKeyAndKeepsTheSavedValue() throws {
        let (home, store) = try home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        try write("# mine\nday_start_hour = 24\nexchange_rate = 2\n", in: home)
        let problems = SettingsFile(home: home).apply(to: store, catalogue: Self.catalogue)
        #expect(problems.count == 1)
        #expect(problems[0].contains("config.toml line 2 (day_start_hour)"), "\(problems)")
        #expect(problems[0].contains("24 is out of range"))
        let settings = try #require(try store.settings())
        #expect(settings.dayStartHour == 3)
        #expect(settings.rules.exchangeRate == 2)
    }

    /// Only a known key has a saved value to keep; a line with no key or an unknown one is
    /// said to be skipped.
    @Test func aLineWithoutAKnownKeyIsSaidToBeSkipped() throws {
        let (home, store) = try home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        try write("= 5\ncolour = red\nnonsense\ntheme = pink\n", in: home)
        let problems = SettingsFile(home: home).apply(to: store, catalogue: Self.catalogue)
        #expect(problems.count == 4, "\(problems)")
        #expect(problems[0].contains("line 1: no key before `=`") && problems[0].hasSuffix("the line is skipped."))
        #expect(problems[1].contains("(colour): unknown key") && problems[1].hasSuffix("the line is skipped."))
        #expect(problems[2].contains("line 3: expected `key = value`") && problems[2].hasSuffix("the line is skipped."))
        #expect(problems[3].contains("(theme)") && problems[3].hasSuffix("that key keeps its saved value."))
    }

    @Test func aMissingFileIsWrittenFromTheSavedSettingsAndReadsBackTheSame() throws {
        let (home, store) = try home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        let file = SettingsFile(home: home)
        #expect(!file.exists)
        #expect(file.apply(to: store, catalogue: Self.catalogue, create: true).isEmpty)
        #expect(file.exists)
        let saved = try #require(try store.settings())
        let reading = file.read()
        #expect(reading.problems.isEmpty)
        #expect(ConfigKey.allCases.allSatisfy(reading.preferences.sets))
        #expect(SettingsFile.merge(reading, into: saved, catalogue: Self.catalogue).settings == saved)
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func savingAKeyChangesItsLineOnly() throws {
        let (home, store) = try home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        try write("# keep me\ntheme = dark # and me\nday_start_hour = 3\n", in: home)
        var settings = try #require(try store.settings())
        settings.dayStartHour = 5
        settings.theme = .light
        try SettingsFile(home: home).save(settings, keys: [.dayStartHour])
        let text = try String(contentsOfFile: SettingsFile(home: home).path, encoding: .utf8)
        #expect(text == "# keep me\ntheme = dark # and me\nday_start_hour = 5\n")
    }
}
