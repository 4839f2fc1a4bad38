/// The settings a config file can hold, each one present only where the file sets it (and sets
/// it to a valid value).
public struct Preferences: Hashable, Sendable {
    public var theme: ThemeChoice?
    public var dayStartHour: Int?
    public var blockMinutes: Int?
    public var exchangeRate: Double?
    public var dailyGoal: Int?
    public var notifications: Bool?
    public var notificationBell: Bool?
    public var notificationDesktop: Bool?
    public var viceApps: [String]?
    public var productiveApps: [String]?
    public var hiddenApps: [String]?
    public var publicRanking: Bool?
    /// Days whose events a daily prune keeps; 0 is off.
    public var pruneKeepDays: Int?

    public init() {}

    /// Whether the file sets `key`.
    public func sets(_ key: ConfigKey) -> Bool {
        switch key {
        case .theme: theme != nil
        case .dayStartHour: dayStartHour != nil
        case .blockMinutes: blockMinutes != nil
        case .exchangeRate: exchangeRate != nil
        case .dailyGoal: dailyGoal != nil
        case .notifications: notifications != nil
        case .notificationBell: notificationBell != nil
        case .notificationDesktop: notificationDesktop != nil
        case .viceApps: viceApps != nil
        case .productiveApps: productiveApps != nil
        case .hiddenApps: hiddenApps != nil
        case .publicRanking: publicRanking != nil
        case .pruneKeepDays: pruneKeepDays != nil
        }
    }

    /// Sets `key` from a parsed value, checking its type and range.
    mutating func set(_ key: ConfigKey, _ value: ConfigValue) throws(ConfigValueError) {
        switch key {
        case .theme:
            guard let theme = ThemeChoice(rawValue: try value.word().lowercased()) else { throw .notAllowed }
            self.theme = theme
        case .dayStartHour: dayStartHour = try value.integer(in: UserSettings.dayStartHourRange)
        case .blockMinutes: blockMinutes = try value.integer(in: UsageRules.blockMinutesRange)
        case .exchangeRate: exchangeRate = try value.number(in: UsageRules.exchangeRateRange)
        case .dailyGoal: dailyGoal = try value.integer(in: UsageRules.dailyGoalRange)
        case .notifications: notifications = try value.switchValue()
        case .notificationBell: notificationBell = try value.switchValue()
        case .notificationDesktop: notificationDesktop = try value.switchValue()
        case .viceApps: viceApps = try value.list()
        case .productiveApps: productiveApps = try value.list()
        case .hiddenApps: hiddenApps = try value.list()
        case .publicRanking: publicRanking = try value.switchValue()
        case .pruneKeepDays:
            if let off = try? value.switchValue(), !off {
                pruneKeepDays = 0
            } else {
                pruneKeepDays = try value.integer(in: UserSettings.pruneKeepDaysRange)
            }
        }
    }
}
