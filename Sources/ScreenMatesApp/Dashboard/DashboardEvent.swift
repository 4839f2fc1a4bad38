import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesTerminal
import ScreenMatesUI

/// Everything that can happen to a running dashboard. Each arrives through one inbox — keys and
/// signals from the terminal, time from the loop, writes and results from background work, and
/// the outcome of every effect — and `DashboardProgram.update` alone decides what it changes.
enum DashboardEvent: Hashable, Sendable {
    // The terminal.
    case key(KeyInput)
    /// The terminal has a new size (or came back from a suspend and must be drawn again whole).
    case resized(width: Int, height: Int)
    /// The program was suspended (Ctrl-Z) and resumed: time may have passed.
    case resumed
    /// A signal asks the program to end.
    case ended(Terminal.Ending)

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
    /// The group link's status changed: a new snapshot, offline, a problem.
    case groupChanged(GroupLink.Status)
    /// The dashboard connected to the user's group (its status as it starts: the cached
    /// snapshot), or to none.
    case groupConnected(GroupLink.Status?)
    /// A group action (create, join, leave) ended.
    case groupActionFinished(GroupActionOutcome)
    /// The group's games changed (an exchange read them back, or the store went out of reach).
    case gamesChanged

    // The outcomes of effects.
    /// Coins, challenges, badges and the group's weeks, read for the screens and the header.
    case gamesRead(GamesData)
    /// What the challenges screen asked for was done (or refused), with the words to show.
    case gameActionFinished(message: String, error: Bool)
    /// The figures were read again; `warning` says why new usage waits, if it does.
    case numbersRead(UsageNumbers, warning: String?)
    /// The notices were looked at: what was shown just now, the log, the next due time.
    case noticesLooked(NoticeCenter.Outcome)
    /// The facts a panel shows, gathered while it is open.
    case debugFacts([DashboardData.DebugLine])
    case seenApps([SettingsScreenState.SeenApp])
    /// A store write asked for by a key failed; the footer says so.
    case writeFailed(warning: String)
    /// A test notice was recorded; the next look at the notices shows it.
    case testNoticeSent
    /// The settings screen's change was saved (with a message to show, if any), or refused.
    case settingsSaved(message: String?)
    case settingsRefused(String)
    /// The simulated day ended (the panel's message), or the clock could not be moved.
    case dayEnded(message: String)
    case dayNotEnded(String)
    /// Local data was cleared: the fresh figures and the config file's problems; or nothing was.
    case localDataCleared(UsageNumbers, configProblems: [String])
    case localDataKept(String)
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
