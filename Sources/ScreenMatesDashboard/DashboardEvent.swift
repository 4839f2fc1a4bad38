import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesMonitorRuntime
import ScreenMatesUI

/// Everything that can happen to a running dashboard. Each arrives through one inbox — keys and
/// signals from the screen, time from the loop, writes and results from background work, and
/// the outcome of every effect — and `DashboardUpdate.update` alone decides what it changes.
enum DashboardEvent: Hashable, Sendable {
    // The terminal.
    case key(KeyInput)
    /// The terminal has a new size (or came back from a suspend and must be drawn again whole).
    case resized(width: Int, height: Int)
    /// The program was suspended (Ctrl-Z) and resumed: time may have passed.
    case resumed
    /// A signal asks the program to end, with the exit status it calls for (128 + the signal).
    case ended(exitStatus: Int32)

    // Time.
    /// The loop woke at `moment`; `timedOut` when nothing but time woke it (a minute turned, the
    /// day may have ended, a toast is due).
    case tick(DashboardMoment, timedOut: Bool)

    // Other processes and background work.
    /// Another process wrote the local database (a monitor, a command).
    case databaseWritten
    /// The demo monitor recorded events.
    case demoRecorded
    /// The demo monitor cannot write (and retries), or can again (nil).
    case demoProblem(String?)
    /// Why the demo's simulated mates are not on the board (nil: they are, or none were asked for).
    case matesProblem(String?)
    /// The group link's status changed: a new snapshot, new games, offline, a problem.
    case groupChanged(GroupLink.Status)
    /// The dashboard connected to the user's group (its status as it starts: the cached
    /// snapshot), or to none.
    case groupConnected(GroupLink.Status?)
    /// A group action (create, join, leave) ended.
    case groupActionFinished(GroupActionOutcome)
    /// The boards of the challenges open to all that the user joined were read anew
    /// (`OpenChallengeWatch`).
    case openBoardsChanged

    // The outcomes of effects.
    /// Coins, challenges, badges and the group's weeks, read for the screens and the header.
    case gamesRead(GamesData)
    /// What the challenges screen asked for was done (or refused), with the words to show.
    case gameActionFinished(message: String, error: Bool)
    /// The figures were read again (`read`), or the store could not be read.
    case numbersRead(UsageFigures, StoreReading)
    /// The notices were looked at: what was shown just now, the log, the next due time.
    case noticesLooked(NoticeCenter.Outcome)
    /// The facts a panel shows, gathered while it is open.
    case debugFacts([DashboardContent.DebugLine])
    case seenApps([SettingsScreenState.SeenApp])
    /// What a key asked to save was saved; or it was not, and the footer says so (`warning`)
    /// until it is.
    case saved(DashboardWrite)
    case writeFailed(DashboardWrite, warning: String)
    /// A test notice was recorded; the next look at the notices shows it. Or it could not be.
    case testNoticeSent
    case testNoticeFailed(String)
    /// How desktop notices reach the desktop from this terminal was found out.
    case noticeCarrierFound(DesktopNoticeCarrier)
    /// The screen draws in the theme the settings name (or, with a problem, could not load it).
    case themeApplied(ThemeChoice, problem: String?)
    /// The store was opened again (it had been opened read-only).
    case storeReopened
    /// The settings screen's change was saved (with a message to show, if any), or refused.
    case settingsSaved(message: String?)
    case settingsRefused(String)
    /// The simulated day ended: the app clock moved to `clock`; or it could not be moved.
    case dayEnded(clock: Date)
    case dayNotEnded(String)
    /// Local data was cleared: the fresh figures and the config file's problems; or nothing was.
    case localDataCleared(UsageFigures, configProblems: [String])
    case localDataKept(String)
}

/// What a key asks to save, for its failure to be shown until it is saved.
enum DashboardWrite: String, Hashable, Sendable, CaseIterable {
    /// The apps picked on the first-run screens (the store and the config file).
    case apps
    /// The display name typed on the first-run screens.
    case name
}

/// How a read of the figures went, beside the figures themselves.
struct StoreReading: Hashable, Sendable {
    /// Why the figures may be stale or new usage waits (the database busy, the disk full…).
    var warning: String?
    /// The read failed: the error's words, for the log (the figures are the last ones read).
    var failure: String?
    /// The store was opened read-only and nothing stops writes now: it may be opened again.
    var reopenable = false
}

/// The time when the loop woke: the app clock's, for what the screen says, and the monotonic
/// clock's, for toasts and intervals that must not jump with the wall clock.
struct DashboardMoment: Hashable, Sendable {
    var now: Date
    var instant: ContinuousClock.Instant
}

/// What a group action (create, join, leave) came to.
enum GroupActionOutcome: Hashable, Sendable {
    case created(Group)
    case joined(Group)
    case left(GroupCode)
    case failed(message: String, nameTaken: Bool)
}
