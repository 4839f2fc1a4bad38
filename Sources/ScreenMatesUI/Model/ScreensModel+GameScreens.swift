import ScreenMatesCore

extension ScreensModel {
    /// Opens the challenges, profile or week screen, from its top (`c`, `p`, `w`).
    public mutating func openGameScreen(_ target: Screen) {
        guard [.challenges, .profile, .week].contains(target) else { return }
        if target == .challenges { games.challenges = ChallengesScreenState() }
        if target == .profile { games.profileScroll = 0 }
        if target == .week { games.weekScroll = 0 }
        screen = target
    }

    /// A key on the challenges, profile or week screen, which take every key themselves: the
    /// request it makes (`.some(nil)` for none), or nil on any other screen. `esc` goes back to
    /// the dashboard; `q` quits from the lists (not from the form).
    mutating func handleGameScreen(_ key: KeyInput) -> DashboardRequest?? {
        switch screen {
        case .challenges:
            switch games.challenges.handle(key, data: data?.games) {
            case .stay: return .some(nil)
            case .back:
                screen = .dashboard
                return .some(nil)
            case .quit: return .some(.quit)
            case .request(let request):
                return .some(request)
            }
        case .profile, .week:
            if key == .character("q") { return .some(.quit) }
            let scroll: WritableKeyPath<GameScreensState, Int> = screen == .profile ? \.profileScroll : \.weekScroll
            if games.handleScrolling(key, scroll: scroll) == false { screen = .dashboard }
            return .some(nil)
        default:
            return nil
        }
    }
}
