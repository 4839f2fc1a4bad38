/// Everything the user chose: who they are, what they track and the numbers behind the rules.
public struct UserSettings: Hashable, Sendable, Codable {
    /// The 8-character user id, made once on this machine.
    public var userID: UserID
    /// `nil` until the user picks a name (first run).
    public var displayName: DisplayName?
    /// The hour (0–23) at which a new day starts.
    public var dayStartHour: Int
    public var rules: UsageRules
    public var notificationsEnabled: Bool
    /// Ring the terminal bell with a notification (when notifications are on).
    public var notificationBell = false
    /// Send notifications to the desktop too (when notifications are on).
    public var notificationDesktop = false
    /// The colour theme the dashboard draws with.
    public var theme = ThemeChoice.terminal
    /// Show the user's name, coins and badges in the ranking across the whole group store
    /// (their group sees them always).
    public var publicRanking = false
    /// Days whose events the daily prune keeps (`pruneKeepDaysRange`); 0: no daily prune.
    public var pruneKeepDays = 0
    public var apps: [TrackedApp]
    /// The group the user is in, if any.
    public var group: GroupMembership?

    public static let dayStartHourRange = 0...23
    /// What a daily prune may keep: a week at least, ten years at most.
    public static let pruneKeepDaysRange = 7...3660

    public init(
        userID: UserID, displayName: DisplayName? = nil, dayStartHour: Int = 0, rules: UsageRules = UsageRules(),
        notificationsEnabled: Bool = true, apps: [TrackedApp] = [], group: GroupMembership? = nil
    ) {
        self.userID = userID
        self.displayName = displayName
        self.dayStartHour = dayStartHour
        self.rules = rules
        self.notificationsEnabled = notificationsEnabled
        self.apps = apps
        self.group = group
    }

    /// The daily limit in force: the group's goal while in a group, the user's own otherwise.
    public var dailyGoalBlocks: Int { group?.dailyGoalBlocks ?? rules.dailyGoalBlocks }

    public var viceApps: [TrackedApp] { apps.filter { $0.category == .vice } }
    public var productiveApps: [TrackedApp] { apps.filter { $0.category == .productive } }
}
