import ScreenMatesCore

/// The demo's simulated group-mates (`dashboard --demo --members N`), as the update decides
/// them: they live in the demo's own group store, never in a group of real people, and follow
/// the user's group there — started when the demo starts or the group is connected to, taken
/// out when the user leaves it and when the home is cleared. A user in no group gets one in the
/// demo's store when the demo starts: the mates need one.
extension DashboardUpdate {
    /// Brings the mates to the group the settings name when it is in the demo's own store, and
    /// takes them out of any other; `makingGroup` (the demo starting) makes a group for a user in
    /// none.
    static func followMates(_ state: inout DashboardState, makingGroup: Bool) -> [DashboardEffect] {
        let settings = state.figures.settings
        guard state.launch.groupStores.demo != nil, settings.displayName != nil else { return [] }
        var effects: [DashboardEffect] = []
        var code: GroupCode?
        if let membership = settings.group {
            if state.launch.groupStores.isDemo(remembered: membership.store) {
                code = membership.code
            } else {
                let problem = "no demo mates: this home is in group \(membership.code) elsewhere"
                state.matesProblem = problem
                effects.append(
                    .log(
                        .init(
                            level: .notice,
                            message:
                                "\(problem); simulated mates join only the demo's own group (leave that group, or give --members 0)"
                        )))
            }
        }
        if let running = state.matesGroup, running != code { effects += stopMates(&state) }
        guard let code else {
            if makingGroup, settings.group == nil, !state.makingDemoGroup {
                // What the group action writes when it ends would land in a cleared home: it
                // counts as one the user started.
                state.makingDemoGroup = true
                state.groupActionsRunning += 1
                effects.append(.startGroupAction(.create(goal: settings.rules.dailyGoalBlocks)))
            }
            return effects
        }
        if state.matesGroup == nil {
            state.matesGroup = code
            effects.append(.startMates(code))
        }
        return effects
    }

    /// Takes the mates out of their group (the demo's group, if it was being made, is left to
    /// finish: it is then the user's group, without mates).
    static func stopMates(_ state: inout DashboardState) -> [DashboardEffect] {
        state.makingDemoGroup = false
        guard state.matesGroup != nil else { return [] }
        state.matesGroup = nil
        return [.stopMates]
    }
}
