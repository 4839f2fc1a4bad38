import ScreenMatesCore

/// The user's group: the link to it, and the outcomes of the group actions asked for on the
/// first-run screens and the group screen.
extension DashboardUpdate {
    /// Connects to the group the settings name (or to none), the demo's mates following it.
    static func connectGroup(_ state: inout DashboardState) -> [DashboardEffect] {
        followMates(&state, makingGroup: false) + [.connectGroup]
    }

    /// A group action ended: its outcome shows where it was asked for (the first-run screens or
    /// the group screen); a group joined, created or left is connected to (or left) once the
    /// figures are read again: the action wrote the membership to the store, and the state's
    /// settings show it only after that read.
    static func groupActionFinished(_ outcome: GroupActionOutcome, _ state: inout DashboardState)
        -> [DashboardEffect]
    {
        state.groupActionsRunning = max(0, state.groupActionsRunning - 1)
        switch outcome {
        case .created(let group), .joined(let group):
            let created: Bool
            if case .created = outcome { created = true } else { created = false }
            if state.model.screen == .setup {
                state.model.setup?.groupSucceeded(
                    code: group.code.value, created: created, memberCount: group.memberCount)
            } else {
                state.model.groupScreen.finished(
                    created
                        ? "Created group \(group.code). Share the code."
                        : "Joined group \(group.code): \(group.memberCount) members.",
                    error: false)
            }
            state.connectAfterRead = true
            return [.readFigures(checkTimeZone: false)]
        case .left(let code):
            state.model.groupScreen.finished("Left group \(code).", error: false)
            state.connectAfterRead = true
            return [.readFigures(checkTimeZone: false)]
        case .failed(let message, let nameTaken):
            if state.model.screen == .setup {
                if nameTaken {
                    state.model.setup?.nameRejected(message)
                } else {
                    state.model.setup?.groupFailed(message)
                }
            } else {
                state.model.groupScreen.finished(message, error: true)
            }
            return []
        }
    }
}
