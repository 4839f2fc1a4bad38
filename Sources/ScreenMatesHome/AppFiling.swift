import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesStore

/// Filing an application as vice or productive from the command line (`screenmates apps add`):
/// typically one a real usage source saw that matched none of the user's apps.
public enum AppFiling {
    /// The applications seen that match none of the apps in `settings` now (one filed since it
    /// was seen is left out), most time first; none when the store cannot be read.
    public static func unplacedSeenApps(store: LocalStore, settings: UserSettings, catalogue: AppCatalogue)
        -> [SeenApp]
    {
        let matcher = AppMatcher(apps: settings.apps, rules: catalogue.desktopRules)
        return ((try? store.seenApps()) ?? []).filter {
            if case .tracked = matcher.match(app: $0.name, title: "") { return false }
            return true
        }
    }

    /// The applications seen in `home` (which has a profile) that match none of its apps now,
    /// most time first, matched with the catalogue the assets `environment` points at hold. A
    /// damaged table of them is an error, not an empty list.
    public static func unplacedSeenApps(home: HomeDirectory, environment: [String: String]) throws(AppError)
        -> [SeenApp]
    {
        try home.requireData()
        do {
            let store = try home.openStore()
            let catalogue = try AssetCatalog.locate(environment: environment).appCatalogue()
            guard let settings = try store.settings() else {
                throw AppError("\(home.path) has no profile yet: run `screenmates setup --name NAME` first.")
            }
            _ = try store.seenApps()
            return unplacedSeenApps(store: store, settings: settings, catalogue: catalogue)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    /// Adds `name` (a catalogue app by name or id, or the name a source reported) to one list,
    /// moving it from the other; saves the database and `config.toml`. Returns the app.
    public static func add(_ name: String, as category: AppCategory, home: HomeDirectory, assets: AssetCatalog)
        throws(AppError) -> TrackedApp
    {
        let catalogue = try assets.appCatalogue()
        guard let app = try ProfileSetup.resolveApps([name], category: category, catalogue: catalogue).first else {
            throw .usage("Name an app to add.")
        }
        do {
            let store = try home.openStore()
            for problem in SettingsFile(home: home).apply(to: store, catalogue: catalogue) {
                FileHandle.standardError.write(Data("screenmates: \(problem)\n".utf8))
            }
            guard var settings = try store.settings(), settings.displayName != nil else {
                throw AppError("\(home.path) has no profile yet: run `screenmates setup --name NAME` first.")
            }
            var apps = settings.apps.filter { $0.id != app.id }
            var added = app
            added.hidden = settings.apps.first { $0.id == app.id }?.hidden ?? false
            apps.append(added)
            try store.setApps(apps)
            settings.apps = apps
            try SettingsFile(home: home).save(settings, keys: [.viceApps, .productiveApps, .hiddenApps])
            return added
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }
}
