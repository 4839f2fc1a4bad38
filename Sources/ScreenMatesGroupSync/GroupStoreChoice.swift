import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore

/// The group store a command was pointed at: `--group-store`, else `SCREENMATES_GROUP_STORE`,
/// else the store a home's group was joined through, else the store `setup` was pointed at
/// (`HomeDirectory.namedGroupStore`), else the home's default file. A store named on the
/// command line or in the environment wins over the one a home remembers.
public struct GroupStoreChoice: Sendable {
    /// `--group-store`, when given.
    public let option: String?
    public let environment: [String: String]
    /// Told why `~/.pgpass` was passed over when it was (as libpq does, a password file others
    /// may read is ignored), each time a PostgreSQL location is resolved.
    public let warn: @Sendable (String) -> Void

    public init(option: String?, environment: [String: String], warn: @escaping @Sendable (String) -> Void) {
        self.option = option
        self.environment = environment
        self.warn = warn
    }

    /// Where the group store is for `home`, whose `settings` (when it has a profile) remember
    /// the store its group was joined through; in no group, the store setup was pointed at.
    public func location(home: HomeDirectory, settings: UserSettings?) throws(AppError) -> GroupStoreLocation {
        warned(
            try GroupStoreLocation.resolve(
                option: option, environment: environment, home: home,
                remembered: settings?.group?.store ?? home.namedGroupStore))
    }

    /// Where the group store is for `home`, which need not exist yet: the store its group was
    /// joined through counts when it has one.
    public func location(home: HomeDirectory) throws(AppError) -> GroupStoreLocation {
        let settings = (try? home.requireData()).flatMap { _ in (try? home.openStore().settings()) ?? nil }
        return try location(home: home, settings: settings)
    }

    /// The store named on the command line or in the environment, if any.
    public func named(home: HomeDirectory) throws(AppError) -> GroupStoreLocation? {
        guard option != nil || !(environment["SCREENMATES_GROUP_STORE"] ?? "").isEmpty else { return nil }
        return warned(try GroupStoreLocation.resolve(option: option, environment: environment, home: home))
    }

    /// `home`'s store, the clock `speed` and `startAt` choose (or the one a running dashboard
    /// publishes) and where the group store is for it: what acting on the group takes.
    func open(home: HomeDirectory, speed: Double?, startAt: Date?, timeZone: TimeZoneSource)
        throws(AppError) -> (store: LocalStore, clock: any AppClock, location: GroupStoreLocation)
    {
        do {
            let store = try home.openStore()
            let clock = try ClockSource.choose(
                speed: speed, startAt: startAt, store: store, publish: false, timeZone: timeZone
            ).clock
            return (store, clock, try location(home: home, settings: try store.settings()))
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    private func warned(_ location: GroupStoreLocation) -> GroupStoreLocation {
        if case .postgres(let server) = location, let warning = server.passwordFileWarning { warn(warning) }
        return location
    }
}
