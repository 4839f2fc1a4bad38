import Foundation
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesUI

/// The dashboard's notices: asks the scheduler what is due, records it in the local store
/// (which makes each notice once, across restarts and open dashboards), and keeps the toasts
/// that are on screen, one after another, each for a few seconds.
final class NoticeCenter {
    /// How long a toast stays, in real seconds, and how much of that it spends fading.
    static let toastSeconds = 5.0
    static let fadeSeconds = 1.0
    /// Notices listed in the pane and the log.
    static let listed = 200

    private let store: LocalStore
    private let started: Date
    private var queue: [DashboardData.NoticeLine] = []
    private var current: (line: DashboardData.NoticeLine, until: ContinuousClock.Instant)?
    private(set) var lines: [DashboardData.NoticeLine] = []
    /// When the scheduler said the next notice that depends on time is due (app clock).
    private(set) var nextDue: Date?
    /// Notices put on screen by this dashboard since the last call to `takeNew`, for the bell and
    /// the desktop.
    private var fresh: [Notice] = []
    /// Whether a toast can be seen: on the dashboard. Elsewhere new toasts wait their turn (the
    /// bell and the desktop do not wait), so a toast never hides another screen's contents.
    var toastsVisible = true

    init(store: LocalStore, now: Date) {
        self.store = store
        self.started = now.addingTimeInterval(-60)
        reloadLines()
    }

    /// Decides and records what is due now; new notices join the toast queue.
    func evaluate(feed: UsageFeed, mates: [NotificationScheduler.Mate]?, now: Date) {
        let recorded =
            (try? store.noticeState(day: feed.today, untoastedSince: started)) ?? (keys: [], shown: 0, untoasted: 0)
        let yesterday = feed.history.last { $0.date == feed.today.adding(days: -1) }
        let input = NotificationScheduler.Input(
            now: now, calendar: feed.calendar, today: feed.today, blocksUsed: feed.ledger.viceBlocks,
            goal: feed.settings.dailyGoalBlocks, streak: feed.summary.streak.current, yesterday: yesterday,
            myName: feed.settings.displayName?.value ?? "you", mates: mates,
            enabled: feed.settings.notificationsEnabled, recordedKeys: recorded.keys, shownToday: recorded.shown)
        let decision = NotificationScheduler.decide(input)
        nextDue = decision.nextDue
        var shown: [NoticeRecord] = []
        if !decision.isEmpty,
            let claimed = try? store.claim(deliver: decision.deliver, countAsSent: decision.countAsSent, at: now)
        {
            shown = claimed.map { NoticeRecord(notice: $0, at: now, shown: true) }
        }
        // Notices sent from the command line (`notify test`), taken by one dashboard only.
        if recorded.untoasted > 0 { shown += (try? store.takeUntoasted(since: started)) ?? [] }
        guard !shown.isEmpty else { return }
        for record in shown {
            queue.append(Self.line(record))
            fresh.append(record.notice)
        }
        reloadLines()
    }

    /// The notices put on screen since the last call.
    func takeNew() -> [Notice] {
        defer { fresh = [] }
        return fresh
    }

    /// The toast to show now, moving on to the next one when its time is up.
    func toast(at instant: ContinuousClock.Instant = .now) -> DashboardData.Toast? {
        if let current, instant >= current.until { self.current = nil }
        if current == nil, toastsVisible, !queue.isEmpty {
            current = (queue.removeFirst(), instant + .seconds(Self.toastSeconds))
        }
        guard let current else { return nil }
        let fading = instant >= current.until - .seconds(Self.fadeSeconds)
        return DashboardData.Toast(notice: current.line, fading: fading)
    }

    /// Real seconds until the toast on screen changes (starts fading or goes), if one is shown.
    func secondsUntilToastChanges(at instant: ContinuousClock.Instant = .now) -> Double? {
        guard let current else { return queue.isEmpty || !toastsVisible ? nil : 0 }
        let fadeAt = current.until - .seconds(Self.fadeSeconds)
        let next = instant < fadeAt ? fadeAt : current.until
        return max(0, (next - instant) / .seconds(1))
    }

    private func reloadLines() {
        lines = ((try? store.shownNotices(limit: Self.listed)) ?? []).map(Self.line)
    }

    static func line(_ record: NoticeRecord) -> DashboardData.NoticeLine {
        DashboardData.NoticeLine(
            at: record.at, title: record.notice.title, body: record.notice.body, severity: record.notice.kind.severity)
    }
}
