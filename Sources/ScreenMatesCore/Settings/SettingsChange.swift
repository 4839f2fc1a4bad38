/// One change the settings screen (or `screenmates config set`) asks for. Adding an app needs
/// the app catalogue to turn a typed name into an app, so it is resolved by the application;
/// every other change applies here.
public enum SettingsChange: Hashable, Sendable {
    case addApp(name: String, category: AppCategory)
    case removeApp(id: String)
    case setHidden(id: String, hidden: Bool)
    case notifications(Bool)
    case notificationBell(Bool)
    case notificationDesktop(Bool)
    case theme(ThemeChoice)
    case dayStartHour(Int)
    case blockMinutes(Int)
    case exchangeRate(Double)
    case dailyGoal(Int)

    /// The config file keys the change is saved under.
    public var keys: [ConfigKey] {
        switch self {
        case .addApp, .removeApp: [.viceApps, .productiveApps, .hiddenApps]
        case .setHidden: [.hiddenApps]
        default: [key]
        }
    }

    /// The config file key the change is mainly about.
    public var key: ConfigKey {
        switch self {
        case .addApp(_, .vice): .viceApps
        case .addApp(_, .productive): .productiveApps
        case .removeApp, .setHidden: .hiddenApps
        case .notifications: .notifications
        case .notificationBell: .notificationBell
        case .notificationDesktop: .notificationDesktop
        case .theme: .theme
        case .dayStartHour: .dayStartHour
        case .blockMinutes: .blockMinutes
        case .exchangeRate: .exchangeRate
        case .dailyGoal: .dailyGoal
        }
    }

    /// Applies every change but `addApp` (which the application resolves first), clamping
    /// numbers to their ranges.
    public func apply(to settings: inout UserSettings) {
        switch self {
        case .addApp:
            break
        case .removeApp(let id):
            settings.apps.removeAll { $0.id == id }
        case .setHidden(let id, let hidden):
            if let index = settings.apps.firstIndex(where: { $0.id == id }) { settings.apps[index].hidden = hidden }
        case .notifications(let on): settings.notificationsEnabled = on
        case .notificationBell(let on): settings.notificationBell = on
        case .notificationDesktop(let on): settings.notificationDesktop = on
        case .theme(let theme): settings.theme = theme
        case .dayStartHour(let hour): settings.dayStartHour = Self.clamp(hour, UserSettings.dayStartHourRange)
        case .blockMinutes(let minutes): settings.rules.blockMinutes = Self.clamp(minutes, UsageRules.blockMinutesRange)
        case .exchangeRate(let rate):
            settings.rules.exchangeRate = min(
                max(rate, UsageRules.exchangeRateRange.lowerBound), UsageRules.exchangeRateRange.upperBound)
        case .dailyGoal(let goal): settings.rules.dailyGoalBlocks = Self.clamp(goal, UsageRules.dailyGoalRange)
        }
    }

    private static func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }
}
