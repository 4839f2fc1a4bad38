import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// A home opened by a long-running command: the store, the profile (created on first use with
/// the catalogue's suggested apps) and the app clock, published when it is simulated so that
/// other commands on the same home follow it.
struct OpenedHome {
    let store: LocalStore
    let settings: UserSettings
    let clock: ClockSource.Choice
    /// Lines of the config file that could not be used, each with its line and key.
    let configProblems: [String]

    static func open(home: HomeDirectory, assets: AssetCatalog, speed: Double?, startAt: Date?) throws(AppError)
        -> OpenedHome
    {
        let store: LocalStore
        do {
            store = try home.openStore()
        } catch {
            throw AppError(error)
        }
        let catalogue = try assets.appCatalogue()
        // The profile's first day comes from the clock the command runs on.
        let provisional = try ClockSource.choose(speed: speed, startAt: startAt, store: store, publish: false)
        var settings = try ProfileSetup.ensureProfile(store: store, catalogue: catalogue, clock: provisional.clock)
        // The config file wins for every key it sets; a missing one is written from the saved
        // settings, so every key is there to edit.
        let configProblems = SettingsFile(home: home).apply(to: store, catalogue: catalogue, create: true)
        settings = (try? store.settings()) ?? settings
        let clock = try ClockSource.choose(
            speed: speed, startAt: startAt, store: store, publish: speed != nil || startAt != nil)
        return OpenedHome(store: store, settings: settings, clock: clock, configProblems: configProblems)
    }
}
