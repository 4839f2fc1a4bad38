import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// The settings of an existing home as `screenmates config show | check | set` sees them: those
/// saved in its database and its `config.toml` together, the file winning for every key it sets
/// (`SettingsFile`). A change is made in both, so neither undoes it.
public struct HomeConfig: Sendable {
    public let store: LocalStore
    public let catalogue: AppCatalogue
    public let file: SettingsFile

    /// Opens `home`, which has data, with the app catalogue of the assets `environment` points at.
    public static func open(home: HomeDirectory, environment: [String: String]) throws(AppError) -> HomeConfig {
        try home.requireData()
        let catalogue = try AssetCatalog.locate(environment: environment).appCatalogue()
        do {
            return HomeConfig(store: try home.openStore(), catalogue: catalogue, file: SettingsFile(home: home))
        } catch {
            throw AppError(error)
        }
    }

    /// Every setting, where it comes from, and what the file could not set.
    public struct Listing: Sendable {
        public struct Entry: Sendable {
            public var key: ConfigKey
            /// As the file writes it.
            public var value: String
            /// Whether `config.toml` sets it (otherwise the database's saved value holds).
            public var fromFile: Bool
        }

        public var entries: [Entry]
        /// The store the group was joined through, which no key of the file sets: the command
        /// line and the environment win over it.
        public var groupStore: (store: String, code: GroupCode)?
        /// The lines of the file it could not use.
        public var problems: [String]
    }

    /// The settings once the file is applied to the database.
    public func listing() throws(AppError) -> Listing {
        let problems = file.apply(to: store, catalogue: catalogue)
        guard let settings = try? store.settings() else { throw AppError("No profile yet; run setup first.") }
        let preferences = file.read().preferences
        return Listing(
            entries: ConfigKey.allCases.map {
                Listing.Entry(
                    key: $0, value: SettingsFile.value(of: $0, in: settings), fromFile: preferences.sets($0))
            },
            groupStore: settings.group.flatMap { group in group.store.map { ($0, group.code) } },
            problems: problems)
    }

    /// What in the file cannot be used, or cannot be used with the saved settings: none when all is
    /// well.
    public func problems() -> [String] {
        let reading = file.read()
        var problems = reading.problems
        if let settings = try? store.settings() {
            problems += SettingsFile.merge(reading, into: settings, catalogue: catalogue).problems
        }
        return problems
    }

    /// Sets `key` to `value` (as the file would write it) in the database and in the file;
    /// returns the value as saved. A value that cannot be used is a usage error and changes
    /// nothing.
    public func set(_ key: ConfigKey, to value: String) throws(AppError) -> String {
        let reading = SettingsFile.Reading(file: ConfigFile(text: "\(key.rawValue) = \(value)"))
        do {
            guard let saved = try store.settings() else { throw AppError("No profile yet; run setup first.") }
            let (merged, problems) = SettingsFile.merge(reading, into: saved, catalogue: catalogue)
            if let problem = problems.first {
                throw AppError.usage(problem.replacingOccurrences(of: "config.toml line 1 ", with: ""))
            }
            try store.updateSettings(merged)
            try file.save(merged, keys: [key])
            return SettingsFile.value(of: key, in: merged)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }
}
