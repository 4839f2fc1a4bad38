import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesSources
import ScreenMatesStore

/// Challenges that act when their app comes to the front while their rule forbids it
/// (`challenge create|join --when-opened`), for a monitor that follows the focused window.
///
/// On every sample the focused window is placed on a tracked app; when another app than before
/// comes to the front, the running challenges that asked for it (`OpenedAction` other than
/// `off`) are judged by `ChallengeGuard` against today's stored blocks, and the strongest one
/// that forbids the app acts at once: the window minimized or asked to close, where the
/// challenge asked for it and the source can; the notice recorded in the notices log (a
/// dashboard shows it), sent to the desktop and returned for the monitor to say. A challenge
/// that only notifies says so at most once a minute; one that moves the window acts every time
/// the app comes back. Nothing is read from the store while the same app keeps the focus.
struct ChallengeWatch {
    /// How often a challenge that only notifies may say so again.
    static let noticeInterval: TimeInterval = 60

    private let store: LocalStore
    private let logger: Logger
    private let tasks: BackgroundTasks
    /// The tracked app in front at the last sample (nil: none, or an untracked one).
    private var inFront: String?
    /// When each challenge last said so, for the ones that only notify.
    private var lastNotice: [String: Date] = [:]

    init(store: LocalStore, logger: Logger, tasks: BackgroundTasks) {
        self.store = store
        self.logger = logger
        self.tasks = tasks
    }

    /// Looks at the sample just taken; acts through `probe` where a challenge asks for it.
    /// Returns the lines for the monitor to say. A store that cannot be read is logged and
    /// tried again when the app next comes to the front.
    mutating func look(
        at sample: FocusSample, matcher: AppMatcher, settings: UserSettings, calendar: DayCalendar, now: Date,
        probe: inout any FocusProbe
    ) async -> [String] {
        let app: TrackedApp? =
            switch sample.app.map({ matcher.match(app: $0, title: sample.title) }) {
            case .tracked(let tracked)?: tracked
            default: nil
            }
        guard app?.id != inFront else { return [] }
        inFront = app?.id
        guard let app else { return [] }
        let forbidden: ChallengeGuard.Forbidden
        do {
            let watched = try store.challenges().filter { $0.outcome == nil && $0.whenOpened != .off }
            guard !watched.isEmpty else { return [] }
            let day = calendar.day(containing: now)
            let today = try store.events(in: calendar.start(of: day)..<calendar.start(of: day.adding(days: 1)))
            guard
                let first = ChallengeGuard(calendar: calendar).forbidding(
                    app, watched: watched.map { .init(challenge: $0.challenge, action: $0.whenOpened) }, today: today,
                    goal: settings.dailyGoalBlocks, now: now
                ).first
            else { return [] }
            forbidden = first
        } catch {
            logger.warning("challenges not read for \(app.id): \(error.message)")
            return []
        }
        let id = forbidden.challenge.id
        if forbidden.action == .notice, let last = lastNotice[id], now >= last,
            now.timeIntervalSince(last) < Self.noticeInterval
        {
            return []
        }
        lastNotice[id] = now
        let (done, moved) = await act(forbidden.action, on: app, probe: &probe)
        // A window moved away: whatever comes to the front next is looked at afresh, another
        // window of the same app included. One that stays (the desktop cannot move it, or it
        // failed) is not tried again until its app comes back.
        if moved { inFront = nil }
        let notice = forbidden.notice(app: app, day: calendar.day(containing: now), at: now, done: done)
        do {
            _ = try store.claim(deliver: [notice], countAsSent: [], at: now, toasted: false)
        } catch {
            logger.warning("a challenge's notice was not recorded: \(error.message)")
        }
        logger.notice("challenge acted", metadata: ["key": "\(notice.key)", "action": "\(forbidden.action.rawValue)"])
        // Notices turned off altogether (`notifications = false`) keep it off the desktop; the
        // challenge still acts, and the act is still recorded and said.
        if settings.notificationsEnabled { DesktopNotifier.notifySend([notice], in: tasks) }
        return ["\(notice.title): \(notice.body)"]
    }

    /// Moves the window out of sight or asks it to close, as `action` says; what was done, in
    /// words for the notice, and whether the window was moved.
    private func act(_ action: OpenedAction, on app: TrackedApp, probe: inout any FocusProbe) async -> (
        words: String?, moved: Bool
    ) {
        let act: WindowAct
        switch action {
        case .off, .notice: return (nil, false)
        case .minimize: act = .minimize
        case .close: act = .close
        }
        do {
            guard try await probe.act(act) else { return (probe.whyWindowStays, false) }
            return (action.done(appName: app.name), true)
        } catch {
            logger.warning("the window was not \(act == .minimize ? "hidden" : "closed"): \(error.message)")
            return (
                "The window could not be \(act == .minimize ? "moved out of sight" : "closed"): \(error.message)", false
            )
        }
    }
}
