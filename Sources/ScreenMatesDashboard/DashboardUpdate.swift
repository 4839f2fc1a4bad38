import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesUI
import ScreenMatesWatch

/// The dashboard's decisions: how each event changes the state, and which effects it asks for
/// (the update of an Elm- or Bubble Tea-shaped program; `DashboardLoop` is its runtime).
/// Pure — no store, clock, terminal or thread — so every flow (setup, group actions, settings,
/// notices, clearing local data, the theme, the demo and its mates stopped and started around a
/// change of the store, the group or the clock, the daily prune) is tested without a terminal.
///
/// One rule it keeps: the screen (`state.model.data`) is derived from the rest of the state by
/// `present` after every event, so nothing on screen can disagree with what the state holds.
enum DashboardUpdate {
    /// Longest sleep without a reason to wake, as a safety net should a change notification be
    /// missed (a network file system).
    static let safetyInterval = 5.0
    /// Shortest sleep, which caps the redraw rate when the app clock runs very fast.
    static let minimumInterval = 0.1
    /// How often the system is asked again for its time zone.
    static let timeZoneCheckInterval: Duration = .seconds(60)
    /// How often a store opened read-only is opened again while nothing seems to stop writes.
    static let reopenInterval: Duration = .seconds(5)

    /// The first screen and what to do before the first wait: the first-run screens for a home
    /// without a name, else the dashboard (and the demo's monitor); the group, the figures and
    /// any notice already due, at once.
    static func start(_ state: inout DashboardState) -> [DashboardEffect] {
        var effects = connectGroup(&state) + [.readFigures(checkTimeZone: false)]
        if state.figures.settings.displayName == nil {
            beginSetup(&state)
        } else if state.launch.demo {
            effects += startDemo(&state)
        }
        present(&state)
        return effects
    }

    static func update(_ state: inout DashboardState, _ event: DashboardEvent) -> [DashboardEffect] {
        // Nothing happens after the end (a key read with the signal that ends the program).
        guard state.exitStatus == nil else { return [] }
        let effects = decide(&state, event)
        present(&state)
        return effects
    }

    private static func decide(_ state: inout DashboardState, _ event: DashboardEvent) -> [DashboardEffect] {
        switch event {
        case .key(let key):
            return handle(key, &state)
        case .resized(let width, let height):
            state.model.resize(width: width, height: height)
            return []
        case .resumed:
            state.lastZoneCheck = state.moment.instant
            return [.readFigures(checkTimeZone: true)]
        case .ended(let exitStatus):
            state.exitStatus = exitStatus
            return []
        case .tick(let moment, let timedOut):
            return tick(moment, timedOut: timedOut, &state)
        case .databaseWritten:
            // A look now, and again on the schedule (the commit may show a moment later).
            state.rechecks.noticed(at: state.moment.instant)
            _ = state.rechecks.take(at: state.moment.instant)
            return [.readFigures(checkTimeZone: false)]
        case .demoRecorded:
            return [.readFigures(checkTimeZone: false)]
        case .demoProblem(let problem):
            state.demoProblem = problem
            return [.readFigures(checkTimeZone: false)]
        case .matesProblem(let problem):
            state.matesProblem = problem
            return []
        case .groupChanged(let status):
            let gamesMoved =
                state.group.map { status.games != $0.games || status.offline != $0.offline } ?? (status.games != nil)
            state.group = status
            // An exchange may have booked a week or decided a challenge: its notices wait.
            return [.readFigures(checkTimeZone: false)] + (gamesMoved ? gamesChanged(state) : [])
        case .groupConnected(let status):
            state.group = status
            guard let status else { return [] }
            return (state.figures.profileDraft.map { [.reportProfile($0)] } ?? [])
                + (status.games != nil ? [.gatherGames] : [])
        case .groupActionFinished(let outcome):
            return groupActionFinished(outcome, &state)
        case .openBoardsChanged:
            return gamesChanged(state)
        case .gamesRead(let games):
            state.games = games
            return []
        case .gameActionFinished(let message, let error):
            state.model.games.challenges.finished(message, error: error)
            // What the user's blocks decide now (a challenge just joined may already be broken)
            // is decided before the games are read for the screens.
            return [
                .settleChallenges, .watchOpenChallenges, .gatherGames, .pokeGames, .readFigures(checkTimeZone: false),
            ]
        case .numbersRead(let figures, let reading):
            return numbersRead(figures, reading, &state)
        case .noticesLooked(let outcome):
            return noticesLooked(outcome, &state)
        case .debugFacts(let lines):
            state.debugLines = lines
            return []
        case .seenApps(let apps):
            state.seenApps = apps
            return []
        case .saved(let what):
            state.writeFailures[what] = nil
            return []
        case .writeFailed(let what, let warning):
            state.writeFailures[what] = warning
            return []
        case .testNoticeSent:
            state.model.debugPanel.finished("Sent a test notice: it shows on the dashboard (esc).", error: false)
            return [.readFigures(checkTimeZone: false)] + panelFacts(&state)
        case .testNoticeFailed(let message):
            state.model.debugPanel.finished("No test notice: \(message)", error: true)
            return panelFacts(&state)
        case .noticeCarrierFound(let carrier):
            state.noticeCarrier = carrier
            state.findingNoticeCarrier = false
            let waiting = state.noticesForDesktop
            state.noticesForDesktop = []
            return (waiting.isEmpty ? [] : [.deliver(waiting, bell: false, desktop: carrier)]) + panelFacts(&state)
        case .themeApplied(let choice, let problem):
            state.themeShown = choice
            if let problem { state.model.settingsScreen?.finished(problem, error: true) }
            return []
        case .storeReopened:
            // What was stopped while it reopened starts again, on the store as it is now.
            return [.readFigures(checkTimeZone: false)] + restartBackground(&state)
        case .settingsSaved(let message):
            if let message { state.model.settingsScreen?.finished(message, error: false) }
            return [.readFigures(checkTimeZone: false)]
        case .settingsRefused(let message):
            state.pendingSettings = nil
            state.model.settingsScreen?.finished(message, error: true)
            return []
        case .dayEnded(let clock):
            let calendar = state.figures.calendar
            let (hour, minute) = calendar.hourAndMinute(of: clock)
            state.model.debugPanel.finished(
                "The day is over: the clock moved to \(TimeFormat.clock(hour: hour, minute: minute)) and \(calendar.day(containing: clock)) has begun. Its notices show on the dashboard (esc).",
                error: false)
            // The demo goes on from the new day's start; the panel's facts follow in the same
            // frame as its message: the day it names.
            let demo = state.demoRunning ? startDemo(&state) : []
            return [.readFigures(checkTimeZone: false)] + demo + panelFacts(&state)
        case .dayNotEnded(let message):
            state.model.debugPanel.finished(message, error: true)
            let demo = state.demoRunning ? startDemo(&state) : []
            return demo + panelFacts(&state)
        case .localDataCleared(let figures, let configProblems):
            state.figures = figures
            state.configProblems = configProblems
            state.group = nil
            state.leaderboards = nil
            state.toasts = ToastQueue()
            state.noticeLines = []
            state.nextNoticeDue = nil
            state.games = nil
            state.gamesBasis = nil
            state.writeFailures = [:]
            state.pendingSettings = nil
            state.demoRunning = false
            state.noticesSince = state.moment.now.addingTimeInterval(-60)
            state.model.debugPanel = DebugPanelState()
            beginSetup(&state)
            return [.readFigures(checkTimeZone: false)]
        case .localDataKept(let message):
            state.model.debugPanel.finished(message, error: true)
            let restarted = restartBackground(&state)
            return [.log(.init(level: .error, message: "clearing local data failed: \(message)"))]
                + restarted + [.readFigures(checkTimeZone: false)] + panelFacts(&state)
        }
    }

    /// The figures were read: the screen, the group, the games and the notices follow; a store
    /// opened read-only that may be written again is opened again (the demo and the group link
    /// stopped meanwhile); a membership a group action changed is connected to; a theme changed
    /// in the settings is drawn in; the daily prune runs on the first read of each day that asks
    /// for it.
    private static func numbersRead(_ figures: UsageFigures, _ reading: StoreReading, _ state: inout DashboardState)
        -> [DashboardEffect]
    {
        var effects: [DashboardEffect] = []
        if let failure = reading.failure, state.storeWarning == nil {
            effects.append(.log(.init(level: .error, message: "reading the figures failed: \(failure)")))
        }
        if figures != state.figures { effects.append(.settleChallenges) }
        if reading.failure == nil, figures.settings.pruneKeepDays > 0, figures.today != state.prunedOn {
            state.prunedOn = figures.today
            effects.append(.prune)
        }
        state.figures = figures
        state.storeWarning = reading.warning
        if reading.failure == nil { state.pendingSettings = nil }
        if reading.reopenable, state.moment.instant >= state.nextReopen {
            state.nextReopen = state.moment.instant + reopenInterval
            return effects + stopBackground(state) + [.reopenStore]
        }
        if state.connectAfterRead, reading.failure == nil {
            state.connectAfterRead = false
            effects += connectGroup(&state)
        }
        if let shown = state.themeShown, figures.settings.theme != shown {
            effects.append(.applyTheme(figures.settings.theme))
        }
        if state.group != nil, let draft = figures.profileDraft { effects.append(.reportProfile(draft)) }
        let basis = DashboardState.GamesBasis(eventsApplied: figures.eventsApplied, today: figures.today)
        if basis != state.gamesBasis {
            state.gamesBasis = basis
            // A challenge open to all joined since (from the command line): its board is watched too.
            effects += [.watchOpenChallenges, .pokeGames, .gatherGames]
        }
        if state.model.screen != .setup { effects.append(.lookAtNotices(mates: state.mates)) }
        return effects
    }

    /// The group's games moved: read them for the screens, and look at the notices an exchange
    /// may have recorded.
    private static func gamesChanged(_ state: DashboardState) -> [DashboardEffect] {
        [.gatherGames] + (state.model.screen != .setup ? [.lookAtNotices(mates: state.mates)] : [])
    }

    /// Stops what writes to the store in the background (the demo, the group link) before the
    /// store or the clock changes under it; `restartBackground` starts it again.
    private static func stopBackground(_ state: DashboardState) -> [DashboardEffect] {
        (state.demoRunning ? [.stopDemo] : []) + (state.group != nil ? [.disconnectGroup] : [])
    }

    private static func restartBackground(_ state: inout DashboardState) -> [DashboardEffect] {
        let demo = state.demoRunning ? startDemo(&state) : []
        return demo + (state.group != nil ? connectGroup(&state) : [])
    }

    /// Starts the demo's monitor (again), and its mates with it.
    private static func startDemo(_ state: inout DashboardState) -> [DashboardEffect] {
        state.demoRunning = true
        return [.startDemo] + followMates(&state, makingGroup: true)
    }

    /// Time passed: the toasts move on; the figures are read again when nothing but time woke
    /// the loop (a minute turned, the day may have ended), when a look after another process's
    /// write is due, and every minute with the time zone.
    private static func tick(_ moment: DashboardMoment, timedOut: Bool, _ state: inout DashboardState)
        -> [DashboardEffect]
    {
        state.moment = moment
        let recheckDue = state.rechecks.take(at: moment.instant)
        let checkZone = moment.instant - state.lastZoneCheck >= timeZoneCheckInterval
        if checkZone { state.lastZoneCheck = moment.instant }
        var effects: [DashboardEffect] = []
        if timedOut || recheckDue || checkZone { effects.append(.readFigures(checkTimeZone: checkZone)) }
        if let due = state.startupPagesDue, moment.instant >= due {
            state.startupPagesDue = nil
            effects.append(.releaseStartupPages)
        }
        return effects + panelFacts(&state)
    }

    /// What the open panel shows is gathered on every wake while it is open (the debug panel
    /// says how desktop notices reach the desktop when they are to: that is found out first).
    private static func panelFacts(_ state: inout DashboardState) -> [DashboardEffect] {
        switch state.model.screen {
        case .debug:
            let desktop = state.launch.desktop || state.figures.settings.notificationDesktop
            return (desktop ? findNoticeCarrier(&state) : []) + [.gatherDebugFacts]
        case .settings:
            return [.gatherSeenApps]
        default:
            return []
        }
    }

    private static func handle(_ key: KeyInput, _ state: inout DashboardState) -> [DashboardEffect] {
        let before = state.model.screen
        let request = state.model.handle(key)
        var effects = state.model.screen != before ? panelFacts(&state) : []
        guard let request else { return effects }
        switch request {
        case .quit:
            state.exitStatus = 0
        case .refresh:
            // Every cell again: something else may have written on the terminal.
            state.repaints += 1
            state.lastZoneCheck = state.moment.instant
            effects += [.repaintAll, .readFigures(checkTimeZone: true)]
        case .saveApps(let apps):
            effects += [.saveApps(apps), .readFigures(checkTimeZone: false)]
        case .saveName(let name):
            effects += [.saveName(name), .readFigures(checkTimeZone: false)]
        case .createGroup(let goal):
            state.groupActionsRunning += 1
            effects.append(.startGroupAction(.create(goal: goal)))
        case .joinGroup(let code):
            state.groupActionsRunning += 1
            effects.append(.startGroupAction(.join(code)))
        case .leaveGroup:
            state.groupActionsRunning += 1
            effects.append(.startGroupAction(.leave))
        case .finishSetup:
            effects += [.releaseClock, .readFigures(checkTimeZone: false)] + connectGroup(&state)
            if state.launch.demo { effects += startDemo(&state) }
        case .changeSettings(let change):
            effects += changeSettings(change, &state)
        case .sendTestNotice:
            effects.append(.sendTestNotice)
        case .syncNow:
            effects.append(.syncNow)
        case .simulateEndOfDay:
            // The demo stops first: none of its blocks lands on the day that is ending.
            effects += (state.demoRunning ? [.stopDemo] : []) + [.endDay]
        case .createChallenge(let request):
            effects.append(.gameAction(.create(request)))
        case .joinChallenge(let id):
            effects.append(.gameAction(.join(id)))
        case .forfeitChallenge(let id):
            effects.append(.gameAction(.forfeit(id)))
        case .clearLocalData:
            // What a group action writes when it ends would land in the cleared home.
            if state.groupActionsRunning > 0 {
                state.model.debugPanel.finished(
                    "A group action is still running; nothing was cleared. Try again in a moment.", error: true)
            } else {
                // Nothing the demo or the group link has in hand lands in the cleared home.
                effects += stopBackground(state) + stopMates(&state) + [.clearLocalData]
            }
        }
        return effects
    }

    /// A change from the settings screen: the settings it makes, from the state's (and those of a
    /// change not read back yet), for the runner to save; an app that cannot be added is refused
    /// at once.
    static func changeSettings(_ change: SettingsChange, _ state: inout DashboardState) -> [DashboardEffect] {
        var settings = state.pendingSettings ?? state.figures.settings
        var confirmation: String?
        if case .addApp(let name, let category) = change {
            let shown = SafeText.displayable(name)
            do throws(AppError) {
                let apps = try ProfileSetup.resolveApps(
                    [name], category: category,
                    catalogue: AppCatalogue(apps: state.launch.catalogue, defaultVice: [], defaultProductive: []))
                guard let app = apps.first, !settings.apps.contains(where: { $0.id == app.id }) else {
                    state.model.settingsScreen?.finished("\(shown) is already on your lists.", error: true)
                    return []
                }
                settings.apps.append(app)
                confirmation = "Added \(shown)."
            } catch {
                state.model.settingsScreen?.finished(error.message, error: true)
                return []
            }
        } else {
            change.apply(to: &settings)
        }
        state.pendingSettings = settings
        return [.saveSettings(settings, for: change, confirmation: confirmation)]
    }

    private static func beginSetup(_ state: inout DashboardState) {
        state.model.beginSetup(
            SetupFlow(catalogue: state.launch.catalogue, current: state.figures.settings.apps, name: nil))
    }
}
