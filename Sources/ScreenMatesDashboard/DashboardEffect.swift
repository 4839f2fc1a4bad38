import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesMonitorRuntime
import ScreenMatesUI

/// Something the dashboard must do outside its state: a value that `DashboardUpdate.update`
/// returns and `DashboardEffectRunner` performs, reporting what came of it as events. The runner
/// takes what an effect needs of the user's setup (settings, calendar, group) from the state it
/// is handed with the effect, and decides nothing.
enum DashboardEffect: Hashable, Sendable {
    /// Read the figures again (new events, a new day, new settings); `checkTimeZone` asks the
    /// system for its time zone again.
    case readFigures(checkTimeZone: Bool)
    /// Decide what the stored blocks decide (challenges, badges), at most once a second.
    case settleChallenges
    /// Run the daily prune in the background (`prune_keep_days`).
    case prune
    /// Decide and record the notices due now; `mates` are the group's other members' figures.
    case lookAtNotices(mates: [NotificationScheduler.Mate]?)
    /// Ring the bell, and send notices to the desktop through `desktop`, the way this terminal
    /// carries them (none: not to the desktop). The toasts are the state's.
    case deliver([Notice], bell: Bool, desktop: DesktopNoticeCarrier?)
    /// Find out how desktop notices reach the desktop from this terminal (inside tmux, in the
    /// background: tmux is asked).
    case findNoticeCarrier
    /// Write every cell again (something else wrote on the terminal).
    case repaintAll
    /// Draw in the theme the settings name from now on.
    case applyTheme(ThemeChoice)
    /// Hand the group link the user's current profile (it sends it if it changed).
    case reportProfile(ProfileDraft)
    /// Connect to the user's group as the state's settings name it (leaving the link there
    /// was), or to none without a group.
    case connectGroup
    /// Leave the group link: nothing it has in hand lands in the local store after this.
    case disconnectGroup
    /// Report to the group store and fetch the group now.
    case syncNow
    case startGroupAction(GroupActionRequest)
    case saveApps([TrackedApp])
    case saveName(DisplayName)
    /// Save the settings `change` made (in the database and the change's lines of the config
    /// file), with the words to confirm it, if any.
    case saveSettings(UserSettings, for: SettingsChange, confirmation: String?)
    case sendTestNotice
    /// Move the simulated clock to the end of today.
    case endDay
    /// Forget this home's data (confirmed) and start from a fresh profile.
    case clearLocalData
    /// Open the store again (it was opened read-only and may now be written).
    case reopenStore
    /// Start the simulated monitor (a demo) from the app clock's now.
    case startDemo
    /// Stop the simulated monitor: nothing it has in hand lands in the store after this.
    case stopDemo
    /// Start the demo's simulated mates in `GroupCode`, a group in the demo's own store.
    case startMates(GroupCode)
    /// Take the demo's simulated mates out of their group (in the background).
    case stopMates
    /// The first-run screens are done: let a held clock run.
    case releaseClock
    /// Gather what the debug panel shows.
    case gatherDebugFacts
    /// Gather the applications a usage source saw that match none of the apps.
    case gatherSeenApps
    /// Watch the boards of the challenges open to all the user takes part in, once they take
    /// part in one (nothing runs for them before).
    case watchOpenChallenges
    /// Read coins, challenges, badges and the group's weeks.
    case gatherGames
    /// Ask the group's games to be exchanged soon (the user's figures changed).
    case pokeGames
    /// Do what the challenges screen asked for (create, join, give up), in the background.
    case gameAction(HomeGames.Action)
    /// Hand back the pages of code and data only start-up touched (`StartupPages`).
    case releaseStartupPages
    /// Write a line to the log.
    case log(DashboardLogLine)

    /// The effects of one batch of events in the order they are performed: first what changes
    /// something (a write, the background work started or stopped), in the order asked; then one
    /// read of the figures for all the reads asked for, so it sees every write before it;
    /// then what reads or hands on, in the order asked. Repeats of an effect that is the same
    /// done once are dropped.
    static func coalesced(_ effects: [DashboardEffect]) -> [DashboardEffect] {
        var changes: [DashboardEffect] = []
        var readFigures: DashboardEffect?
        var reads: [DashboardEffect] = []
        for effect in effects {
            switch effect.phase {
            case .change:
                if !effect.isIdempotent || !changes.contains(effect) { changes.append(effect) }
            case .readFigures:
                if case .readFigures(true) = effect {
                    readFigures = effect
                } else if readFigures == nil {
                    readFigures = effect
                }
            case .read:
                if !effect.isIdempotent || !reads.contains(effect) { reads.append(effect) }
            }
        }
        return changes + (readFigures.map { [$0] } ?? []) + reads
    }

    private enum Phase {
        case change, readFigures, read
    }

    private var phase: Phase {
        switch self {
        case .readFigures:
            .readFigures
        case .gatherDebugFacts, .gatherSeenApps, .gatherGames, .deliver, .repaintAll, .reportProfile, .syncNow,
            .pokeGames, .startGroupAction, .gameAction, .releaseStartupPages:
            .read
        default:
            .change
        }
    }

    /// Whether doing it twice in a row is the same as doing it once.
    private var isIdempotent: Bool {
        switch self {
        case .lookAtNotices, .repaintAll, .connectGroup, .disconnectGroup, .syncNow, .gatherDebugFacts,
            .gatherSeenApps, .reportProfile, .gatherGames, .watchOpenChallenges, .pokeGames, .settleChallenges,
            .prune, .stopDemo,
            .stopMates, .applyTheme, .findNoticeCarrier:
            return true
        default:
            return false
        }
    }
}

/// A line for the log, decided by the update (a failure logged once, not on every read).
struct DashboardLogLine: Hashable, Sendable {
    enum Level: Hashable, Sendable {
        case notice, warning, error
    }

    var level: Level
    var message: String
}

/// A group action asked for by a key.
enum GroupActionRequest: Hashable, Sendable {
    case create(goal: Int)
    case join(GroupCode)
    case leave
}
