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
        let settings = try ProfileSetup.ensureProfile(store: store, catalogue: catalogue, clock: provisional.clock)
        let clock = try ClockSource.choose(
            speed: speed, startAt: startAt, store: store, publish: speed != nil || startAt != nil)
        return OpenedHome(store: store, settings: settings, clock: clock)
    }
}
