import Foundation
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesMonitorRuntime
import ScreenMatesUI
import ScreenMatesWatch

/// Everything the running dashboard knows, as a value: the screens' own state, the figures as
/// last read, the group as last seen, the notices, the theme on screen, and what is under way
/// (the demo's monitor, a reopen of the store due). Only `DashboardUpdate.update` changes it; the
/// screen is drawn from `model`, which `present` keeps in step with the rest; the effect runner
/// reads the user's setup from it and keeps nothing of its own.
struct DashboardState: Hashable, Sendable {
    /// What the dashboard was launched with, the same for the whole run.
    struct Launch: Hashable, Sendable {
        /// How many app-clock seconds pass per real second.
        var clockSpeed: Double
        /// A demo: the simulated monitor runs inside the dashboard.
        var demo: Bool
        /// `--bell` and `--desktop-notify` (the settings can turn them on too).
        var bell: Bool
        var desktop: Bool
        /// The apps the first-run screens offer.
        var catalogue: [TrackedApp]
        /// The theme follows the settings (none was named on the command line, colour is on).
        var themeFollowsSettings = false
        /// Where this run's groups live: the demo's own store, the store named for the run (the
        /// runner opens the same value's answer).
        var groupStores = SessionGroupStores()
    }

    var launch: Launch
    /// The screens' state; `model.data` is derived (see `present`).
    var model: ScreensModel
    var figures: UsageFigures
    /// The group link's status, while connected to a group.
    var group: GroupLink.Status?
    /// The time at the last wake.
    var moment: DashboardMoment
    /// Why the figures may be stale or new usage waits (the database is busy, the disk full…),
    /// as the last read of the figures found it.
    var storeWarning: String?
    /// What a key asked to save and was not saved, with the footer's words for it: each stays
    /// until that is saved (a read of the figures does not take it away: the save still failed).
    var writeFailures: [DashboardWrite: String] = [:]
    /// The demo monitor cannot write.
    var demoProblem: String?
    /// Why the demo's simulated mates are not on the board.
    var matesProblem: String?
    /// The demo monitor runs (or is to run again once the store is back or the day moved).
    var demoRunning = false
    /// The group the demo's simulated mates were started in, while they run.
    var matesGroup: GroupCode?
    /// The demo is making its group for a user in none (once per run, or until the home is
    /// cleared).
    var makingDemoGroup = false
    /// The theme on screen, while it follows the settings.
    var themeShown: ThemeChoice?
    /// When a store opened read-only may next be opened again (`DashboardUpdate.reopenInterval`).
    var nextReopen: ContinuousClock.Instant
    /// Notices sent from the command line since this moment are this dashboard's to show.
    var noticesSince: Date
    /// Lines of the config file that could not be used.
    var configProblems: [String]
    var toasts = ToastQueue()
    /// How desktop notices reach the desktop from this terminal, once found out (inside tmux,
    /// tmux is asked once: at the first notice for the desktop, or when the debug panel shows it).
    var noticeCarrier: DesktopNoticeCarrier?
    var findingNoticeCarrier = false
    /// Notices for the desktop that wait for the carrier to be found out.
    var noticesForDesktop: [Notice] = []
    /// Every notice shown so far, newest first.
    var noticeLines: [DashboardContent.NoticeLine] = []
    /// When the next notice that depends on time is due (app clock).
    var nextNoticeDue: Date?
    /// The settings as the last change on the settings screen made them, until a read of the
    /// figures shows them: a second change before that read builds on the first.
    var pendingSettings: UserSettings?
    /// Group actions started and not finished yet.
    var groupActionsRunning = 0
    /// A group action changed the membership: the group link is to follow it once a read of the
    /// figures shows it.
    var connectAfterRead = false
    /// After another process's write is noticed, when to look again (the notice can come a
    /// moment before SQLite publishes the commit).
    var rechecks = RecheckSchedule()
    /// When the system was last asked for its time zone.
    var lastZoneCheck: ContinuousClock.Instant
    /// When the pages only start-up touched are to be handed back (once, `StartupPages.delay`
    /// after the start; the loop wakes at least every `DashboardUpdate.safetyInterval`).
    var startupPagesDue: ContinuousClock.Instant?
    /// The day the daily prune was last asked for (`prune_keep_days`): once a day.
    var prunedOn: LocalDate?
    /// Coins, challenges, badges and the group's weeks, as last read.
    var games: GamesData?
    /// The figures the games were last asked to follow (events stored, the day): a change means
    /// a block may have decided a challenge, or a day ended.
    var gamesBasis: GamesBasis?
    /// The debug panel's facts and the settings screen's seen apps, while those are open.
    var debugLines: [DashboardContent.DebugLine]?
    var seenApps: [SettingsScreenState.SeenApp]?
    /// The ranked leaderboards and what they were ranked from (ranking thousands of members
    /// again only when that changes).
    var leaderboards: LeaderboardMemo?
    /// Set when the dashboard is to end, with the exit status.
    var exitStatus: Int32?
    /// How many times every cell was asked to be written again (`r`): the loop draws the frame
    /// whole when this changes, even if nothing on it did.
    var repaints = 0

    struct GamesBasis: Hashable, Sendable {
        var eventsApplied: Int
        var today: LocalDate
    }

    struct LeaderboardMemo: Hashable, Sendable {
        var key: Key
        var boards: [LeaderboardPeriod: [LeaderboardEntry]]

        /// What the leaderboards depend on, cheap to compare: a snapshot is told by when it was
        /// fetched, not member by member.
        struct Key: Hashable, Sendable {
            var fetchedAt: Date?
            var memberCount: Int
            var today: LocalDate
            var blocks: Int
            var streak: Int
            var history: [Int]
            var name: String?
            var lastActive: Date?
        }
    }

    init(
        launch: Launch, figures: UsageFigures, moment: DashboardMoment, width: Int, height: Int,
        configProblems: [String]
    ) {
        self.launch = launch
        self.figures = figures
        self.moment = moment
        self.lastZoneCheck = moment.instant
        self.nextReopen = moment.instant
        self.noticesSince = moment.now.addingTimeInterval(-60)
        self.themeShown = launch.themeFollowsSettings ? figures.settings.theme : nil
        self.startupPagesDue = moment.instant + StartupPages.delay
        self.configProblems = configProblems
        model = ScreensModel(screen: .dashboard, width: width, height: height)
    }

    /// The footer's word on a config file with lines it could not use (the log has each one).
    var configWarning: String? {
        guard !configProblems.isEmpty else { return nil }
        let count = configProblems.count
        return
            "\(SettingsFile.fileName): \(count) line\(count == 1 ? "" : "s") not used - see `screenmates config check`"
    }

    /// The footer's word on the first thing a key asked to save that was not saved.
    var writeWarning: String? {
        DashboardWrite.allCases.lazy.compactMap { writeFailures[$0] }.first
    }

    /// The other members of the user's group with today's figures, for group notices.
    var mates: [NotificationScheduler.Mate]? {
        guard figures.settings.group != nil, let snapshot = group?.snapshot else { return nil }
        return snapshot.members.filter { $0.userID != figures.settings.userID }.map { profile in
            NotificationScheduler.Mate(
                userID: profile.userID, name: profile.displayName.value,
                blocksToday: profile.day == figures.today ? profile.blocksToday : nil)
        }
    }
}
