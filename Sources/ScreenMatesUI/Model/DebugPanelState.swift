/// The debug panel's own state: the confirmation asked before local data is cleared, and the
/// outcome of its last action.
public struct DebugPanelState: Hashable, Sendable {
    /// Waiting for `y` before clearing local data.
    public var confirmingClear = false
    /// The outcome of the last action, or why it could not run.
    public var message: String?
    public var messageIsError = false
    /// First row of the facts shown, where they are taller than the panel.
    public var scroll = 0

    public init() {}

    /// Keys while the confirmation is open: `y` clears, any other key keeps everything.
    mutating func handleConfirmation(_ key: KeyInput) -> DashboardRequest? {
        confirmingClear = false
        if key == .character("y") || key == .character("Y") {
            message = nil
            return .clearLocalData
        }
        finished("Nothing was cleared.", error: false)
        return nil
    }

    /// Shows the outcome of an action.
    public mutating func finished(_ text: String, error: Bool) {
        message = text
        messageIsError = error
    }
}
