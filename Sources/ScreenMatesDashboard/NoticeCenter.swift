import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesUI

/// The dashboard's notices on the store's side: asks the scheduler what is due and records it in
/// the local store, which makes each notice once, across restarts and open dashboards. What it
/// shows goes back to the dashboard as a value (`Outcome`); the toasts are the dashboard's
/// (`ToastQueue`).
struct NoticeCenter {
    /// Notices listed in the pane and the log.
    static let listed = 200

    /// What one look at the notices found.
    struct Outcome: Hashable, Sendable {
        /// The notices this dashboard put on screen just now, oldest first.
        var shown: [NoticeRecord]
        /// Every notice shown so far, newest first, for the pane and the log; nil when nothing
        /// new was shown (the list is as it was).
        var lines: [DashboardContent.NoticeLine]?
        /// When the next notice that depends on time is due (app clock).
        var nextDue: Date?
    }

    private let store: LocalStore
    /// Notices sent from the command line since this moment are this dashboard's to show.
    private let started: Date

    /// `since`: notices sent from the command line since then are this dashboard's to show (the
    /// dashboard's start, less a minute).
    init(store: LocalStore, since: Date) {
        self.store = store
        self.started = since
    }

    /// Every notice shown so far, newest first.
    func lines() -> [DashboardContent.NoticeLine] {
        ((try? store.shownNotices(limit: Self.listed)) ?? []).map(Self.line)
    }

    /// Decides and records what is due now.
    func evaluate(figures: UsageFigures, mates: [NotificationScheduler.Mate]?, now: Date) -> Outcome {
        let recorded =
            (try? store.noticeState(day: figures.today, untoastedSince: started)) ?? (keys: [], shown: 0, untoasted: 0)
        let yesterday = figures.history.last { $0.date == figures.today.adding(days: -1) }
        let input = NotificationScheduler.Input(
            now: now, calendar: figures.calendar, today: figures.today, blocksUsed: figures.summary.progress.blocksUsed,
            goal: figures.settings.dailyGoalBlocks, streak: figures.summary.streak.current, yesterday: yesterday,
            myName: figures.settings.displayName?.value ?? "you", mates: mates,
            enabled: figures.settings.notificationsEnabled, recordedKeys: recorded.keys, shownToday: recorded.shown)
        let decision = NotificationScheduler.decide(input)
        var shown: [NoticeRecord] = []
        if !decision.isEmpty,
            let claimed = try? store.claim(deliver: decision.deliver, countAsSent: decision.countAsSent, at: now)
        {
            shown = claimed.map { NoticeRecord(notice: $0, at: now, shown: true) }
        }
        // Notices sent from the command line (`notify test`), taken by one dashboard only.
        if recorded.untoasted > 0 { shown += (try? store.takeUntoasted(since: started)) ?? [] }
        return Outcome(shown: shown, lines: shown.isEmpty ? nil : lines(), nextDue: decision.nextDue)
    }

    static func line(_ record: NoticeRecord) -> DashboardContent.NoticeLine {
        DashboardContent.NoticeLine(
            at: record.at, title: record.notice.title, body: record.notice.body, severity: record.notice.kind.severity)
    }
}
