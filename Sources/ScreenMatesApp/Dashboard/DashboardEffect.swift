import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesUI

/// Something the dashboard must do outside its state: a value that `DashboardProgram.update`
/// returns and `DashboardEffects` performs, posting what came of it back as an event.
enum DashboardEffect: Hashable, Sendable {
    /// Read the figures again (new events, a new day, new settings); `checkTimeZone` asks the
    /// system for its time zone again.
    case refresh(checkTimeZone: Bool)
    /// Decide and record the notices due now; `mates` are the group's other members' figures.
    case lookAtNotices(mates: [NotificationScheduler.Mate]?)
    /// Ring the bell and send notices to the desktop (the toasts are the state's).
    case deliver([Notice], bell: Bool, desktop: Bool)
    /// Write every cell again (something else wrote on the terminal).
    case repaintAll
    /// Hand the group link the user's current profile (it sends it if it changed).
    case reportProfile(ProfileDraft)
    /// Connect to the user's group as the settings now name it (or disconnect, without one).
    case connectGroup
    /// Report to the group store and fetch the group now.
    case syncNow
    case startGroupAction(GroupActionRequest)
    case saveApps([TrackedApp])
    case saveName(DisplayName)
    case changeSettings(SettingsChange)
    case sendTestNotice
    /// Move the simulated clock to the end of today.
    case endDay
    /// Forget this home's data (confirmed) and start from a fresh profile.
    case clearLocalData
    /// Start the simulated monitor (a demo).
    case startDemo
    /// The first-run screens are done: let a held clock run.
    case releaseClock
    /// Gather what the debug panel shows.
    case gatherDebugFacts(nextNoticeDue: Date?)
    /// Gather the applications a usage source saw that match none of the apps.
    case gatherSeenApps
    /// Read coins, challenges, badges and the group's weeks.
    case gatherGames
    /// Ask the group's games to be exchanged soon (the user's numbers changed).
    case pokeGames
    /// Do what the challenges screen asked for (create, join, give up), in the background.
    case gameAction(GameScreensSupport.Action)
    /// Hand back the pages of code and data only start-up touched (`StartupPages`).
    case releaseStartupPages

    /// The same effects with the refreshes asked for by one batch of events merged into the
    /// first of them (one read of the store covers them all).
    static func coalesced(_ effects: [DashboardEffect]) -> [DashboardEffect] {
        var result: [DashboardEffect] = []
        var refreshAt: Int?
        for effect in effects {
            if case .refresh(let checkZone) = effect {
                if let index = refreshAt {
                    if checkZone { result[index] = .refresh(checkTimeZone: true) }
                } else {
                    refreshAt = result.count
                    result.append(effect)
                }
            } else if !result.contains(effect) || !effect.isIdempotent {
                result.append(effect)
            }
        }
        return result
    }

    /// Whether doing it twice in a row is the same as doing it once.
    private var isIdempotent: Bool {
        switch self {
        case .lookAtNotices, .repaintAll, .connectGroup, .syncNow, .gatherDebugFacts, .gatherSeenApps,
            .reportProfile, .gatherGames, .pokeGames:
            return true
        default:
            return false
        }
    }
}

/// A group action asked for by a key.
enum GroupActionRequest: Hashable, Sendable {
    case create(goal: Int)
    case join(GroupCode)
    case leave
}
