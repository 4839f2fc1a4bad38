/// A key of the config file, with the range its value must be in.
public enum ConfigKey: String, Hashable, Sendable, CaseIterable {
    case theme
    case dayStartHour = "day_start_hour"
    case blockMinutes = "block_minutes"
    case exchangeRate = "exchange_rate"
    case dailyGoal = "daily_goal"
    case notifications
    case notificationBell = "notification_bell"
    case notificationDesktop = "notification_desktop"
    case viceApps = "vice_apps"
    case productiveApps = "productive_apps"
    case hiddenApps = "hidden_apps"
    case publicRanking = "public_ranking"
    case pruneKeepDays = "prune_keep_days"

    /// What the key is for, written above it when the file is created.
    public var summary: String {
        switch self {
        case .theme: "colour theme: terminal (the terminal's own colours), dark or light"
        case .dayStartHour: "hour (0-23) at which a new day starts; 4 suits night owls"
        case .blockMinutes: "minutes of usage in one block (1-240)"
        case .exchangeRate: "balance earned per productive minute (0-10)"
        case .dailyGoal: "your own daily limit in vice blocks (1-96), used while you are in no group"
        case .notifications: "notifications on or off"
        case .notificationBell: "ring the terminal bell with a notification"
        case .notificationDesktop: "send notifications to the desktop too"
        case .viceApps: "vice (distracting) apps, by name or id"
        case .productiveApps: "productive apps, by name or id"
        case .hiddenApps: "apps whose names never leave this machine (they still count)"
        case .publicRanking:
            "show your name, coins and badges to everyone in the group store (your group sees them always)"
        case .pruneKeepDays:
            "once a day, fold the events of days older than this many into their day rows (7-3660), or off"
        }
    }

    /// The allowed values, as an error message words them.
    public var allowed: String {
        switch self {
        case .theme: "terminal, dark or light"
        case .dayStartHour: "a whole number from 0 to 23"
        case .blockMinutes: "a whole number from 1 to 240"
        case .exchangeRate: "a number from 0 to 10"
        case .dailyGoal: "a whole number from 1 to 96"
        case .notifications, .notificationBell, .notificationDesktop, .publicRanking: "on or off (true or false)"
        case .viceApps, .productiveApps, .hiddenApps: "a list of app names, such as [\"TikTok\", \"YouTube\"]"
        case .pruneKeepDays: "off, or a whole number from 7 to 3660"
        }
    }
}

/// The colour theme the dashboard draws with.
public enum ThemeChoice: String, Hashable, Sendable, CaseIterable, Codable {
    /// The terminal's own foreground and background, good on light and dark terminals alike.
    case terminal
    case dark
    case light
}
