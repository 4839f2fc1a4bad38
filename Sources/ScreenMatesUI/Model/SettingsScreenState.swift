import Foundation
import ScreenMatesCore

/// The settings screen (`s`): the two app lists (add, remove, hide), the notification switches,
/// the theme, and the numbers behind the day (day-start hour, own goal, block length, exchange
/// rate).
///
/// Every change is sent at once as a `SettingsChange` and shown at once; the application saves
/// it in the database and the config file, and the next data brings back what was saved.
public struct SettingsScreenState: Hashable, Sendable {
    /// One line of the list.
    public enum Row: Hashable, Sendable {
        case app(id: String, category: AppCategory)
        case addApp(AppCategory)
        /// An application a usage source saw that matches none of the apps: ← files it as
        /// vice, → as productive.
        case seenApp(name: String)
        case notifications
        case notificationBell
        case notificationDesktop
        case theme
        case dayStartHour
        case dailyGoal
        case blockMinutes
        case exchangeRate
    }

    /// The values shown.
    public private(set) var settings: UserSettings
    /// Index into `rows`.
    public private(set) var selection = 0
    /// The list a new app is being typed for, if one is.
    public private(set) var adding: AppCategory?
    public private(set) var nameInput = TextInput(maximumLength: 40)
    /// What the last change did, or why it was refused.
    public private(set) var message: String?
    public private(set) var messageIsError = false
    /// Applications seen that match none of the apps, most time first.
    public private(set) var seen: [SeenApp] = []

    /// An application a real usage source saw but could not place, with its active time.
    public struct SeenApp: Hashable, Sendable {
        public var name: String
        public var seconds: Int

        public init(name: String, seconds: Int) {
            self.name = name
            self.seconds = seconds
        }
    }

    public init(settings: UserSettings, seen: [SeenApp] = []) {
        self.settings = settings
        self.seen = seen
    }

    /// The rows, in screen order.
    public var rows: [Row] {
        settings.viceApps.map { Row.app(id: $0.id, category: .vice) } + [.addApp(.vice)]
            + settings.productiveApps.map { Row.app(id: $0.id, category: .productive) } + [.addApp(.productive)]
            + seen.map { Row.seenApp(name: $0.name) } + [
                .notifications, .notificationBell, .notificationDesktop, .theme, .dayStartHour,
                .dailyGoal, .blockMinutes, .exchangeRate,
            ]
    }

    public var selectedRow: Row { rows[min(selection, rows.count - 1)] }

    /// New settings from the store (after a save, or changed elsewhere).
    public mutating func update(_ settings: UserSettings) {
        let selected = selectedRow
        self.settings = settings
        selection = rows.firstIndex(of: selected) ?? min(selection, rows.count - 1)
    }

    /// New applications seen (the application gathers them while the screen is open).
    public mutating func updateSeen(_ seen: [SeenApp]) {
        guard seen != self.seen else { return }
        let selected = selectedRow
        self.seen = seen
        selection = rows.firstIndex(of: selected) ?? min(selection, rows.count - 1)
    }

    /// The application could not save a change (or tells what it did).
    public mutating func finished(_ text: String?, error: Bool) {
        message = text
        messageIsError = error
    }

    mutating func move(by offset: Int) {
        selection = max(0, min(rows.count - 1, selection + offset))
    }

    /// Keys while a new app's name is being typed.
    mutating func handleTyping(_ key: KeyInput) -> DashboardRequest? {
        guard let category = adding else { return nil }
        switch key {
        case .escape:
            adding = nil
            message = nil
        case .enter:
            let name = nameInput.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                finished("Type the app's name, or press esc.", error: true)
                return nil
            }
            adding = nil
            nameInput = TextInput(maximumLength: 40)
            message = nil
            return .changeSettings(.addApp(name: name, category: category))
        default:
            if nameInput.handle(key) { message = nil }
        }
        return nil
    }

    /// A settings action from the key table; the period keys (←/→) step the selected value.
    mutating func handle(_ action: Action) -> DashboardRequest? {
        message = nil
        let row = selectedRow
        switch action {
        case .scrollDown: move(by: 1)
        case .scrollUp: move(by: -1)
        case .removeApp:
            guard case .app(let id, let category) = row else {
                finished("Select an app to remove it.", error: true)
                return nil
            }
            guard settings.apps.filter({ $0.category == category }).count > 1 else {
                finished("Keep at least one \(category.rawValue) app; add another first.", error: true)
                return nil
            }
            return send(.removeApp(id: id))
        case .change: return change(row, by: 1, toggling: true)
        case .nextPeriod: return change(row, by: 1, toggling: false)
        case .previousPeriod: return change(row, by: -1, toggling: false)
        default: break
        }
        return nil
    }

    private mutating func startAdding(_ category: AppCategory) {
        adding = category
        nameInput = TextInput(maximumLength: 40)
        if let index = rows.firstIndex(of: .addApp(category)) { selection = index }
    }

    /// Enter (`toggling`) flips a switch, opens the new app's name, or steps a number up
    /// (the hour wraps round); the arrows step numbers and the theme either way.
    private mutating func change(_ row: Row, by step: Int, toggling: Bool) -> DashboardRequest? {
        switch row {
        case .app(let id, _):
            guard toggling, let app = settings.apps.first(where: { $0.id == id }) else { return nil }
            return send(.setHidden(id: id, hidden: !app.hidden))
        case .addApp(let category):
            if toggling { startAdding(category) }
            return nil
        case .seenApp(let name):
            guard !toggling else {
                finished("← files \(name) as a vice app, → as a productive one.", error: false)
                return nil
            }
            // Gone from the list at once; the application adds it to the list chosen.
            seen.removeAll { $0.name == name }
            selection = min(selection, rows.count - 1)
            return .changeSettings(.addApp(name: name, category: step < 0 ? .vice : .productive))
        case .notifications: return send(.notifications(!settings.notificationsEnabled))
        case .notificationBell: return send(.notificationBell(!settings.notificationBell))
        case .notificationDesktop: return send(.notificationDesktop(!settings.notificationDesktop))
        case .theme:
            let all = ThemeChoice.allCases
            let index = all.firstIndex(of: settings.theme)!
            return send(.theme(all[(index + step + all.count) % all.count]))
        case .dayStartHour:
            let hour = settings.dayStartHour + step
            let range = UserSettings.dayStartHourRange
            return send(.dayStartHour(toggling ? (hour + 24) % 24 : min(max(hour, range.lowerBound), range.upperBound)))
        case .dailyGoal:
            return send(.dailyGoal(settings.rules.dailyGoalBlocks + step))
        case .blockMinutes:
            let minutes = settings.rules.blockMinutes
            // Steps of 5 minutes, of 1 below 5.
            let next = step > 0 ? (minutes < 5 ? minutes + 1 : minutes + 5) : (minutes <= 5 ? minutes - 1 : minutes - 5)
            return send(.blockMinutes(next))
        case .exchangeRate:
            let next = ((settings.rules.exchangeRate * 10).rounded() + Double(step)) / 10
            return send(.exchangeRate(next))
        }
    }

    /// Shows the change at once and hands it to the application; a change that changes nothing
    /// (a number at the end of its range) is not sent.
    private mutating func send(_ change: SettingsChange) -> DashboardRequest? {
        var changed = settings
        change.apply(to: &changed)
        guard changed != settings else { return nil }
        let selected = selectedRow
        settings = changed
        selection = rows.firstIndex(of: selected) ?? min(selection, rows.count - 1)
        return .changeSettings(change)
    }
}
