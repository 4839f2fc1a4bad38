import ScreenMatesCore

/// The notices: the toasts and the log on screen, the bell at once, the desktop once the way this
/// terminal carries notices is known.
extension DashboardUpdate {
    /// New notices join the toasts and the log; the bell and the desktop hear of them at once
    /// (they do not wait for the toasts).
    static func noticesLooked(_ outcome: NoticeCenter.Outcome, _ state: inout DashboardState)
        -> [DashboardEffect]
    {
        state.nextNoticeDue = outcome.nextDue
        if let lines = outcome.lines { state.noticeLines = lines }
        guard !outcome.shown.isEmpty else { return [] }
        state.toasts.add(outcome.shown.map(NoticeCenter.line))
        let bell = state.launch.bell || state.figures.settings.notificationBell
        let desktop = state.launch.desktop || state.figures.settings.notificationDesktop
        guard bell || desktop else { return [] }
        let notices = outcome.shown.map(\.notice)
        guard desktop, state.noticeCarrier == nil else {
            return [.deliver(notices, bell: bell, desktop: desktop ? state.noticeCarrier : nil)]
        }
        // The desktop waits for the terminal to be found out (inside tmux, tmux is asked in the
        // background); the bell does not.
        state.noticesForDesktop += notices
        return (bell ? [.deliver(notices, bell: true, desktop: nil)] : []) + findNoticeCarrier(&state)
    }

    /// Asks how desktop notices reach the desktop, unless that is known or being found out.
    static func findNoticeCarrier(_ state: inout DashboardState) -> [DashboardEffect] {
        guard state.noticeCarrier == nil, !state.findingNoticeCarrier else { return [] }
        state.findingNoticeCarrier = true
        return [.findNoticeCarrier]
    }
}
