import ScreenMatesCore

/// What a key asks of the application, beyond the screen's own state: the runtime turns each
/// request into effects (a store write, a group action, a clock jump) and shows their outcome.
public enum DashboardRequest: Hashable, Sendable {
    case quit
    case refresh
    /// Setup: track these apps (vice and productive).
    case saveApps([TrackedApp])
    case saveName(DisplayName)
    case createGroup(goal: Int)
    case joinGroup(GroupCode)
    case leaveGroup
    /// Setup is over: show the dashboard.
    case finishSetup
    /// Settings screen: save this change (database and config file).
    case changeSettings(SettingsChange)
    /// Debug panel: send a test notice.
    case sendTestNotice
    /// Debug panel: report to the group store now.
    case syncNow
    /// Debug panel: move the simulated clock to the day's reset.
    case simulateEndOfDay
    /// Debug panel: forget this home's data and start the first run again (confirmed).
    case clearLocalData
    /// Challenges screen: create this challenge (the application gives it its id and first day).
    case createChallenge(ChallengeRequest)
    /// Challenges screen: join the group's challenge with this id.
    case joinChallenge(String)
    /// Challenges screen: give this challenge up (confirmed).
    case forfeitChallenge(String)
}
