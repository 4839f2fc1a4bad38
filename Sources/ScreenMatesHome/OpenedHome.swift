import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// A home opened by a long-running command: the store, the profile (created on first use with
/// the catalogue's suggested apps) and the app clock, published when it is simulated so that
/// other commands on the same home follow it.
package struct OpenedHome {
    package let store: LocalStore
    package let settings: UserSettings
    package let clock: ClockSource.Choice
    /// Lines of the config file that could not be used, each with its line and key.
    package let configProblems: [String]
    /// The app catalogue the profile's apps were chosen from.
    package let catalogue: AppCatalogue

    /// Opens `home`. With `startAfresh` (a demo), the usage, history and notices of an existing
    /// profile are cleared first and its days begin again on the clock's day, so a clock that
    /// starts before them is no going back. `publish` false keeps a simulated clock to this
    /// process (a home this process only writes for, such as a simulated group-mate's). Its
    /// days are counted in `timeZone`, which the clock chosen carries on.
    package static func open(
        home: HomeDirectory, assets: AssetCatalog, timeZone: TimeZoneSource, speed: Double?, startAt: Date?,
        startAfresh: Bool = false, publish: Bool = true
    ) throws(AppError) -> OpenedHome {
        let store: LocalStore
        do {
            store = try home.openStore()
        } catch {
            throw AppError(error)
        }
        if startAfresh { try Self.startAfresh(store, home: home, at: startAt ?? Date(), zone: timeZone.current()) }
        let catalogue = try assets.appCatalogue()
        // The profile's first day comes from the clock the command runs on.
        let provisional = try ClockSource.choose(
            speed: speed, startAt: startAt, store: store, publish: false, timeZone: timeZone)
        var settings = try ProfileSetup.ensureProfile(store: store, catalogue: catalogue, clock: provisional)
        // The member's secret, made on this machine with the profile (kept if there is one).
        _ = try MemberIdentityFile(home: home).identity(for: settings.userID)
        // The config file wins for every key it sets; a missing one is written from the saved
        // settings, so every key is there to edit.
        let configProblems = SettingsFile(home: home).apply(to: store, catalogue: catalogue, create: true)
        settings = (try? store.settings()) ?? settings
        let clock = try ClockSource.choose(
            speed: speed, startAt: startAt, store: store, publish: publish && (speed != nil || startAt != nil),
            timeZone: timeZone)
        return OpenedHome(
            store: store, settings: settings, clock: clock, configProblems: configProblems, catalogue: catalogue)
    }

    /// Opens `home` for a command that records its usage (a monitor, a follower, an import):
    /// the home must have a profile — else the error says to set one up first, then run
    /// `command` ("the monitor") — and the config file's problems are said on standard error.
    package static func forRecording(
        home: HomeDirectory, assets: AssetCatalog, timeZone: TimeZoneSource, command: String, speed: Double? = nil,
        startAt: Date? = nil
    ) throws(AppError) -> OpenedHome {
        let opened = try open(home: home, assets: assets, timeZone: timeZone, speed: speed, startAt: startAt)
        guard opened.settings.displayName != nil else {
            if opened.clock.published { ClockSource.withdraw(from: opened.store) }
            throw AppError(
                "\(home.path) has no profile yet: run `screenmates setup --name NAME` (or `screenmates`) first, then \(command)."
            )
        }
        for problem in opened.configProblems {
            FileHandle.standardError.write(Data("screenmates: \(problem)\n".utf8))
        }
        return opened
    }

    /// Clears a demo's usage, history and notices so its days begin on the day of `start`;
    /// refused while another process has the home open, whose data it would pull away.
    private static func startAfresh(_ store: LocalStore, home: HomeDirectory, at start: Date, zone: TimeZone)
        throws(AppError)
    {
        do {
            guard let settings = try store.settings() else { return }
            guard store.openedAlone else {
                throw AppError.usage(
                    "Another ScreenMates process has the demo's data in \(home.path) open, and a demo starts afresh. "
                        + "Close it first, or give --home DIR to run this demo on a home of its own.")
            }
            let calendar = DayCalendar(timeZone: zone, dayStartHour: settings.dayStartHour)
            try store.startAfresh(trackingStart: calendar.day(containing: start))
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }
}
