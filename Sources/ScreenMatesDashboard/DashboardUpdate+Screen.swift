import Foundation
import ScreenMatesCore
import ScreenMatesReports
import ScreenMatesUI

/// The screen and the wake, from the state: what `model.data` shows (brought in step after
/// every event) and how long the loop may sleep before the screen must change.
extension DashboardUpdate {
    /// Brings `model.data` in step with the state: the figures, the group, the notices and the
    /// toast on screen now, the open panel's facts.
    static func present(_ state: inout DashboardState) {
        let instant = state.moment.instant
        state.toasts.visible = state.model.screen == .dashboard && !state.model.isTooSmall
        state.toasts.advance(to: instant)
        let now = state.moment.now
        let minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let key = leaderboardKey(state)
        if state.leaderboards?.key != key {
            state.leaderboards = DashboardState.LeaderboardMemo(
                key: key, boards: DashboardContentBuilder.leaderboards(figures: state.figures, group: state.group))
        }
        let monitorProblem = state.demoProblem.map { _ in "demo monitor cannot write; retrying" }
        var data = DashboardContentBuilder.make(
            figures: state.figures, clockSpeed: state.launch.clockSpeed, now: minute, group: state.group,
            leaderboards: state.leaderboards?.boards,
            warning: state.storeWarning ?? state.writeWarning ?? monitorProblem ?? state.matesProblem
                ?? state.configWarning ?? state.games?.week?.reminder,
            source: state.launch.demo ? "demo monitor" : nil)
        data.games = state.games
        data.notices = state.noticeLines
        data.toast = state.toasts.toast(at: instant)
        if state.model.screen == .settings { data.seenApps = state.seenApps }
        if state.model.screen == .debug { data.debugLines = state.debugLines }
        state.model.update(data)
    }

    private static func leaderboardKey(_ state: DashboardState) -> DashboardState.LeaderboardMemo.Key {
        let figures = state.figures
        let snapshot = state.group?.snapshot
        return DashboardState.LeaderboardMemo.Key(
            fetchedAt: snapshot?.fetchedAt, memberCount: snapshot?.members.count ?? 0, today: figures.today,
            blocks: figures.summary.ledger.viceBlocks, streak: figures.summary.streak.current,
            history: figures.history.suffix(31).map(\.viceBlocks), name: figures.settings.displayName?.value,
            lastActive: figures.lastActive)
    }

    /// Real seconds from `moment` until the screen must change even if nothing else happens:
    /// the next minute on the app clock, the daily reset, a toast, the next notice, a look
    /// after another process's write.
    static func secondsUntilWake(_ state: DashboardState, at moment: DashboardMoment) -> Double {
        let speed = state.launch.clockSpeed
        let now = moment.now
        func real(until instant: Date) -> Double { max(0, instant.timeIntervalSince(now) / speed) }
        let intoMinute = now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        let nextMinute = (60 - intoMinute) / speed
        let reset = real(until: state.figures.todayInterval.upperBound)
        let toast = state.toasts.secondsUntilChange(at: moment.instant) ?? .infinity
        let notice = state.nextNoticeDue.map(real(until:)) ?? .infinity
        let recheck = state.rechecks.next.map { max(0, ($0 - moment.instant) / .seconds(1)) } ?? .infinity
        return min(max(minimumInterval, min(nextMinute, reset, safetyInterval, toast, notice)), recheck)
    }
}
