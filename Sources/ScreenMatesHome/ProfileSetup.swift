import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// Creating the profile and choosing the tracked apps, shared by the first-run screen and
/// `screenmates setup`.
public enum ProfileSetup {
    /// The profile, created on first use with the catalogue's suggested apps; its first day is
    /// the clock's, in the clock's time zone.
    public static func ensureProfile(store: LocalStore, catalogue: AppCatalogue, clock: ClockSource.Choice)
        throws(AppError) -> UserSettings
    {
        do {
            if let existing = try store.settings() { return existing }
            var generator = SystemRandomNumberGenerator()
            let calendar = DayCalendar(timeZone: clock.timeZone.current())
            let now = clock.clock.now()
            return try store.createProfileIfNeeded(
                userID: UserID.random(using: &generator), trackingStart: calendar.day(containing: now),
                apps: catalogue.defaultVice + catalogue.defaultProductive, now: now)
        } catch {
            throw AppError(error)
        }
    }

    /// What `screenmates setup` sets: a name, and what else is given. A list of apps replaces
    /// that category's; nil or empty leaves the saved value.
    public struct Choices: Sendable {
        public var name: DisplayName
        public var vice: [TrackedApp]
        public var productive: [TrackedApp]
        public var dayStartHour: Int?
        public var goal: Int?

        public init(
            name: DisplayName, vice: [TrackedApp] = [], productive: [TrackedApp] = [], dayStartHour: Int? = nil,
            goal: Int? = nil
        ) {
            self.name = name
            self.vice = vice
            self.productive = productive
            self.dayStartHour = dayStartHour
            self.goal = goal
        }
    }

    /// Saves `choices` into the profile of `home` (creating it, and the member's secret with it,
    /// on this machine), in the database and in `config.toml`, which would otherwise win over
    /// them; returns the settings saved. The profile's first day is the day of `clock`.
    public static func save(
        _ choices: Choices, home: HomeDirectory, catalogue: AppCatalogue, speed: Double?, startAt: Date?,
        timeZone: TimeZoneSource
    ) throws(AppError) -> UserSettings {
        do {
            let store = try home.openStore()
            let clock = try ClockSource.choose(
                speed: speed, startAt: startAt, store: store, publish: false, timeZone: timeZone)
            var settings = try ensureProfile(store: store, catalogue: catalogue, clock: clock)
            _ = try MemberIdentityFile(home: home).identity(for: settings.userID)
            settings.displayName = choices.name
            if !choices.vice.isEmpty || !choices.productive.isEmpty {
                settings.apps =
                    (choices.vice.isEmpty ? settings.viceApps : choices.vice)
                    + (choices.productive.isEmpty ? settings.productiveApps : choices.productive)
            }
            if let dayStartHour = choices.dayStartHour { settings.dayStartHour = dayStartHour }
            if let goal = choices.goal { settings.rules.dailyGoalBlocks = goal }
            try store.updateSettings(settings)
            var keys: [ConfigKey] = [.viceApps, .productiveApps, .hiddenApps]
            if choices.dayStartHour != nil { keys.append(.dayStartHour) }
            if choices.goal != nil { keys.append(.dailyGoal) }
            try SettingsFile(home: home).save(settings, keys: keys)
            return settings
        } catch {
            throw AppError(error)
        }
    }

    public static let maximumAppNameLength = 40

    /// Apps named on the command line: a catalogue app by id or name, or a custom app.
    public static func resolveApps(_ names: [String], category: AppCategory, catalogue: AppCatalogue) throws(AppError)
        -> [TrackedApp]
    {
        var result: [TrackedApp] = []
        for raw in names {
            let name = raw.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw .usage("An app name is empty.") }
            guard !SafeText.hasUnsafeCharacters(name) else {
                throw .usage(
                    "The app name \"\(SafeText.displayable(name))\" contains control, bidi or invisible characters; type it plainly."
                )
            }
            guard name.count <= maximumAppNameLength else {
                throw .usage(
                    "App names have at most \(maximumAppNameLength) characters; \"\(name)\" has \(name.count).")
            }
            var app = catalogue.find(name) ?? custom(name, category: category)
            app.category = category
            if !result.contains(where: { $0.id == app.id }) { result.append(app) }
        }
        return result
    }

    private static func custom(_ name: String, category: AppCategory) -> TrackedApp {
        let slug = name.lowercased().unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }
            .joined()
        return TrackedApp(id: "custom-\(slug)", name: name, bundleID: "custom.\(slug)", category: category)
    }
}
