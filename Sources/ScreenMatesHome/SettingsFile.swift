import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// The config file, `config.toml` in the data directory, and how it meets the settings saved in
/// the database.
///
/// Precedence, simply: **the file wins for every key it sets**; a key it does not set (or sets
/// to something unreadable) keeps the value saved in the database, which is the default until
/// changed. Commands that open the data directory read the file and save what it sets into the
/// database, so every process (dashboard, monitor, status, export) works from the same values.
/// The settings screen and `screenmates config set` change both, the file one line at a time.
public struct SettingsFile: Sendable {
    public let path: String

    public init(home: HomeDirectory) {
        path = home.path + "/config.toml"
    }

    public static let fileName = "config.toml"

    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// What the file says: its lines, and the messages for lines that could not be used (each
    /// naming the file, the line and the key).
    public struct Reading: Sendable {
        public var file: ConfigFile
        public var preferences: Preferences
        public var problems: [String]

        /// A reading of `file` (its problems worded as `read()` words them).
        public init(file: ConfigFile, path: String = SettingsFile.fileName) {
            self.file = file
            let (preferences, problems) = file.read()
            self.preferences = preferences
            // A known key with a bad value keeps its saved value; any other line is skipped.
            self.problems = problems.map { problem in
                let known = problem.key.flatMap(ConfigKey.init(rawValue:)) != nil
                return "\(path) \(problem); " + (known ? "that key keeps its saved value." : "the line is skipped.")
            }
        }
    }

    /// Reads the file; a missing file sets nothing, an unreadable one is reported and sets
    /// nothing.
    public func read() -> Reading {
        guard exists else { return Reading(file: ConfigFile(text: "")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            var reading = Reading(file: ConfigFile(text: ""))
            reading.problems = ["\(path) cannot be read; check its permissions. Using the saved settings."]
            return reading
        }
        return Reading(file: ConfigFile(text: String(decoding: data, as: UTF8.self)), path: path)
    }

    /// `settings` with what the file sets, and the messages for what it could not use.
    public static func merge(
        _ reading: Reading, into settings: UserSettings, catalogue: AppCatalogue
    ) -> (settings: UserSettings, problems: [String]) {
        let preferences = reading.preferences
        var result = settings
        var problems: [String] = []
        if let theme = preferences.theme { result.theme = theme }
        if let hour = preferences.dayStartHour { result.dayStartHour = hour }
        if let minutes = preferences.blockMinutes { result.rules.blockMinutes = minutes }
        if let rate = preferences.exchangeRate { result.rules.exchangeRate = rate }
        if let goal = preferences.dailyGoal { result.rules.dailyGoalBlocks = goal }
        if let on = preferences.notifications { result.notificationsEnabled = on }
        if let on = preferences.notificationBell { result.notificationBell = on }
        if let on = preferences.notificationDesktop { result.notificationDesktop = on }
        if let on = preferences.publicRanking { result.publicRanking = on }
        if let days = preferences.pruneKeepDays { result.pruneKeepDays = days }
        for (key, category, names) in [
            (ConfigKey.viceApps, AppCategory.vice, preferences.viceApps),
            (.productiveApps, .productive, preferences.productiveApps),
        ] {
            guard let names else { continue }
            let line = reading.file.lineNumber(of: key).map { " line \($0)" } ?? ""
            do throws(AppError) {
                let apps = try ProfileSetup.resolveApps(names, category: category, catalogue: catalogue)
                guard !apps.isEmpty else {
                    problems.append(
                        "config.toml\(line) (\(key.rawValue)): the list is empty; keeping the saved \(category.rawValue) apps."
                    )
                    continue
                }
                let hidden = Set(result.apps.filter(\.hidden).map(\.id))
                let others = result.apps.filter { $0.category != category && !apps.map(\.id).contains($0.id) }
                result.apps = (category == .vice ? apps + others : others + apps).map { app in
                    var app = app
                    app.hidden = hidden.contains(app.id)
                    return app
                }
            } catch {
                problems.append("config.toml\(line) (\(key.rawValue)): \(error.message) Keeping the saved apps.")
            }
        }
        if let names = preferences.hiddenApps {
            let wanted = Set(names.map { $0.lowercased() })
            for index in result.apps.indices {
                let app = result.apps[index]
                result.apps[index].hidden = wanted.contains(app.id) || wanted.contains(app.name.lowercased())
            }
            let known = Set(result.apps.flatMap { [$0.id, $0.name.lowercased()] })
            for name in names where !known.contains(name.lowercased()) {
                let line = reading.file.lineNumber(of: .hiddenApps).map { " line \($0)" } ?? ""
                problems.append(
                    "config.toml\(line) (hidden_apps): \"\(SafeText.displayable(name))\" is not one of your apps; it is ignored."
                )
            }
        }
        return (result, problems)
    }

    /// Moves the file aside (when clearing local data) to `config.toml.cleared-YYYYMMDD-HHMMSS`
    /// (UTC) beside it, so a hand-written file stops applying but is not lost; returns the new
    /// path, or nil when there was no file.
    public func setAside(at instant: Date = Date()) throws(AppError) -> String? {
        guard exists else { return nil }
        let stamped = path + ".cleared-" + TimeFormat.fileStamp(instant)
        var target = stamped
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = stamped + "-\(attempt)"
        }
        do {
            try FileManager.default.moveItem(atPath: path, toPath: target)
        } catch {
            throw AppError("\(path) could not be moved aside (\(error.localizedDescription)); nothing was cleared.")
        }
        return target
    }

    /// Reads the file and saves what it sets into the store; returns the messages for lines it
    /// could not use. With `create`, a missing file is written from the saved settings, so the
    /// user finds every key there, explained. A store that may not be written is left as it is.
    @discardableResult
    public func apply(to store: LocalStore, catalogue: AppCatalogue, create: Bool = false) -> [String] {
        let reading = read()
        guard let saved = try? store.settings() else { return reading.problems }
        let (merged, problems) = Self.merge(reading, into: saved, catalogue: catalogue)
        if merged != saved { try? store.updateSettings(merged) }
        if create && !exists { try? write(merged, keys: ConfigKey.allCases, onto: ConfigFile(text: "")) }
        return reading.problems + problems
    }

    /// The file's value for `key` from `settings`.
    public static func value(of key: ConfigKey, in settings: UserSettings) -> String {
        switch key {
        case .theme: ConfigFile.value(settings.theme.rawValue)
        case .dayStartHour: ConfigFile.value(settings.dayStartHour)
        case .blockMinutes: ConfigFile.value(settings.rules.blockMinutes)
        case .exchangeRate: ConfigFile.value(settings.rules.exchangeRate)
        case .dailyGoal: ConfigFile.value(settings.rules.dailyGoalBlocks)
        case .notifications: ConfigFile.value(settings.notificationsEnabled)
        case .notificationBell: ConfigFile.value(settings.notificationBell)
        case .notificationDesktop: ConfigFile.value(settings.notificationDesktop)
        case .viceApps: ConfigFile.value(settings.viceApps.map(\.name))
        case .productiveApps: ConfigFile.value(settings.productiveApps.map(\.name))
        case .hiddenApps: ConfigFile.value(settings.apps.filter(\.hidden).map(\.name))
        case .publicRanking: ConfigFile.value(settings.publicRanking)
        case .pruneKeepDays:
            settings.pruneKeepDays == 0 ? ConfigFile.value("off") : ConfigFile.value(settings.pruneKeepDays)
        }
    }

    /// Writes `keys` from `settings` into the file, changing only their lines (a new file gets
    /// a header and every key explained).
    public func save(_ settings: UserSettings, keys: [ConfigKey]) throws(AppError) {
        let current = read().file
        try write(settings, keys: current.lines.isEmpty ? ConfigKey.allCases : keys, onto: current)
    }

    private func write(_ settings: UserSettings, keys: [ConfigKey], onto file: ConfigFile) throws(AppError) {
        var file = file
        if file.lines.isEmpty { file = ConfigFile(text: ConfigFile.header.map { $0 + "\n" }.joined()) }
        for key in keys { file.set(key, to: Self.value(of: key, in: settings)) }
        try AtomicFile.write(Data(file.text.utf8), to: path)
    }
}
