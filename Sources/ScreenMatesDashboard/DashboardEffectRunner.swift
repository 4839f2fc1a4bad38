import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesMonitorRuntime
import ScreenMatesStore
import ScreenMatesUI
import ScreenMatesWatch

/// What the dashboard's effects are performed with, chosen once before the screen starts.
struct DashboardDependencies {
    let home: HomeDirectory
    let store: LocalStore
    let clock: ClockSource.Choice
    let timeZone: TimeZoneSource
    let options: DashboardOptions
    let assets: AssetCatalog
    let catalogue: AppCatalogue
    /// The demo monitor's scenario (a demo only).
    let scenario: UsageScenario?
    /// The day the demo's simulated mates follow (a demo with mates only).
    var mateProfile: UsageProfile? = nil
    let logger: Logger
}

/// Performs the dashboard's effects — the only part of the dashboard that reads and writes the
/// store and the config file, starts and stops background work and talks to the screen beyond
/// drawing — and reports what came of each as events, either at once (the returned ones) or,
/// for work in the background, through the inbox.
///
/// It decides nothing and keeps nothing the update could need: what an effect needs of the
/// user's setup (settings, calendar, group, what the panels show) it reads from the state handed
/// with the effect. What it holds are the handles of what it runs — the store's reader (which
/// reads only what changed since its last read), the demo monitor, the demo's mates' task, the
/// group link.
///
/// It lives on the loop's thread; the work it starts belongs to `tasks`, which the session
/// awaits before it returns.
final class DashboardEffectRunner {
    let dependencies: DashboardDependencies
    let screen: any DashboardScreen
    let inbox: DashboardInbox
    let tasks: BackgroundTasks
    let settingsFile: SettingsFile
    /// The store's reader: the figures, read incrementally (only what changed).
    var reader: FiguresReader
    let demo = DemoMonitor()
    /// The task the demo's simulated mates run in, while they run.
    var mates: Task<Void, Never>?
    /// The one link to the user's group (the leaderboard and the games), while in one.
    var groupLink: GroupLink?
    /// What keeps the boards of the challenges open to all fresh, in a group or not.
    var openWatch: OpenChallengeWatch?
    /// Each group store location resolved, by the URL or path remembered: the group link and the
    /// open challenges' watch get the same one, so on a server they share one store (one pool).
    var resolvedGroupStores: [String: GroupStoreLocation] = [:]
    /// Watches that the background work's tasks run (`PoolWatchdog`), for the debug panel.
    var poolWatchdog: PoolWatchdog?
    /// Where this run's groups live (the state holds the same value, `launch.groupStores`).
    let groupStores: SessionGroupStores
    let referee: ChallengeReferee
    /// The daily prune (`DashboardUpdate` decides when; in the background).
    let pruner: DailyPrune

    init(
        _ dependencies: DashboardDependencies, reader: FiguresReader, screen: any DashboardScreen,
        inbox: DashboardInbox,
        tasks: BackgroundTasks
    ) {
        self.dependencies = dependencies
        self.reader = reader
        self.screen = screen
        self.inbox = inbox
        self.tasks = tasks
        settingsFile = SettingsFile(home: dependencies.home)
        groupStores = Self.groupStores(dependencies)
        referee = ChallengeReferee(
            clock: dependencies.clock.clock, timeZone: dependencies.timeZone, logger: dependencies.logger)
        pruner = DailyPrune(
            clock: dependencies.clock.clock, timeZone: dependencies.timeZone, logger: dependencies.logger)
    }

    var store: LocalStore { dependencies.store }
    var clock: any AppClock { dependencies.clock.clock }
    var logger: Logger { dependencies.logger }

    /// Stops the background work that writes to the store; it ends soon after (the session
    /// awaits `tasks`), and nothing more of it reaches the store.
    func stopBackground() {
        demo.stop()
        stopMates()
        disconnectGroup()
    }

    /// Performs `effect` for a dashboard whose state is `state`; the events it returns are what
    /// came of it at once.
    func perform(_ effect: DashboardEffect, in state: DashboardState) -> [DashboardEvent] {
        switch effect {
        case .readFigures(let checkTimeZone): return [readFigures(checkTimeZone: checkTimeZone)]
        case .settleChallenges: referee.settleSoon(store)
        case .prune: prune()
        case .lookAtNotices(let mates): return [lookAtNotices(mates: mates, state)]
        case .deliver(let notices, let bell, let desktop): deliver(notices, bell: bell, desktop: desktop)
        case .findNoticeCarrier: return findNoticeCarrier()
        case .repaintAll: screen.invalidate()
        case .applyTheme(let choice): return [applyTheme(choice)]
        case .reportProfile(let draft): groupLink?.report(draft)
        case .connectGroup: return [connectGroup(state.figures.settings)]
        case .disconnectGroup: disconnectGroup()
        case .syncNow: groupLink?.syncNow()
        case .startGroupAction(let request):
            startGroupAction(request, remembered: state.figures.settings.group?.store)
        case .saveApps(let apps): return [saveApps(apps, settings: state.figures.settings)]
        case .saveName(let name): return [write(.name) { () throws(StoreError) in try store.setDisplayName(name) }]
        case .saveSettings(let settings, let change, let confirmation):
            return [saveSettings(settings, for: change, confirmation: confirmation)]
        case .sendTestNotice: return [sendTestNotice(state)]
        case .endDay: return [endDay(at: state.figures.todayInterval.upperBound)]
        case .clearLocalData: return [clearLocalData(calendar: state.figures.calendar)]
        case .reopenStore: return [reopenStore()]
        case .startDemo: startDemo(settings: state.figures.settings, calendar: state.figures.calendar)
        case .stopDemo: demo.stop()
        case .startMates(let code): startMates(in: code, settings: state.figures.settings)
        case .stopMates: stopMates()
        case .releaseClock: ClockSource.release(dependencies.clock, store: store)
        case .releaseStartupPages: releaseStartupPages()
        case .gatherDebugFacts: return [.debugFacts(debugLines(state))]
        case .watchOpenChallenges: watchOpenChallenges(state.figures.settings)
        case .gatherGames: return [gatherGames(state)]
        case .pokeGames: groupLink?.poke()
        case .gameAction(let action): startGameAction(action, support: gamesSupport(state))
        case .gatherSeenApps: return [gatherSeenApps(state)]
        case .log(let line): log(line)
        }
        return []
    }

    // MARK: - The figures

    /// Reads the figures again. Reading works on a full disk or a read-only file system; the
    /// reading says why new usage waits, and whether a store opened read-only may be opened again.
    func readFigures(checkTimeZone: Bool) -> DashboardEvent {
        let problem = WriteProblem.find(forDatabaseAt: dependencies.home.databasePath)
        var reading = StoreReading(reopenable: store.isReadOnly && problem == nil)
        do {
            _ = try reader.read(checkTimeZone: checkTimeZone)
            reading.warning =
                problem.flatMap(Self.shortWarning)
                ?? reader.notWritable.map { _ in "database read-only - numbers are not saved" }
        } catch {
            reading.failure = error.message
            reading.warning = Self.shortWarning(for: error)
        }
        return .numbersRead(reader.figures, reading)
    }

    /// Runs the daily prune in the background (it prunes only if the settings still ask for it).
    private func prune() {
        let (pruner, store) = (self.pruner, self.store)
        tasks.start { pruner.runIfDue(store) }
    }

    /// Opens the store again (it was opened while the data directory could not be written, and
    /// stays read-only in this process until then); the figures are read afresh from it.
    private func reopenStore() -> DashboardEvent {
        do {
            try store.reopen()
            reader = try FiguresReader(store: store, clock: clock, timeZone: dependencies.timeZone)
            logger.notice("the database can be written again", metadata: ["read-only": "\(store.isReadOnly)"])
        } catch {
            logger.error("opening the database again failed: \(error.message)")
        }
        return .storeReopened
    }

    /// Loads the theme the settings name and draws in it from now on.
    private func applyTheme(_ choice: ThemeChoice) -> DashboardEvent {
        do throws(AppError) {
            screen.setTheme(try dependencies.assets.theme(named: choice.rawValue))
            return .themeApplied(choice, problem: nil)
        } catch {
            logger.error("loading the theme \(choice.rawValue) failed: \(error.message)")
            return .themeApplied(choice, problem: error.message)
        }
    }

    // MARK: - Pages, the log

    /// The statements start-up prepared and the pages it read first: the idle dashboard asks for
    /// a few of them again, once a minute at most.
    private func releaseStartupPages() {
        store.releaseMemory()
        let kilobytes = StartupPages.release()
        logger.debug("start-up pages handed back", metadata: ["KiB": "\(kilobytes)"])
    }

    private func gatherSeenApps(_ state: DashboardState) -> DashboardEvent {
        let seen = AppFiling.unplacedSeenApps(
            store: store, settings: state.figures.settings, catalogue: dependencies.catalogue)
        return .seenApps(seen.map { SettingsScreenState.SeenApp(name: $0.name, seconds: $0.seconds) })
    }

    private func log(_ line: DashboardLogLine) {
        switch line.level {
        case .notice: logger.notice("\(line.message)")
        case .warning: logger.warning("\(line.message)")
        case .error: logger.error("\(line.message)")
        }
    }

    // MARK: - Writes asked for by keys

    /// Saves the apps in the store and in the config file (their lines only, in `settings` as
    /// the state has them); a failure of either is the apps' warning, the store's first.
    private func saveApps(_ apps: [TrackedApp], settings: UserSettings) -> DashboardEvent {
        let stored = write(.apps) { () throws(StoreError) in try store.setApps(apps) }
        var settings = settings
        settings.apps = apps
        do {
            try settingsFile.save(settings, keys: [.viceApps, .productiveApps, .hiddenApps])
        } catch {
            logger.error("saving the apps in the config file failed: \(error.message)")
            guard case .saved = stored else { return stored }
            return .writeFailed(.apps, warning: "\(SettingsFile.fileName) not saved - see the log")
        }
        return stored
    }

    /// Runs a store write asked for by a key: saved, or not saved with the footer's words why.
    private func write(_ what: DashboardWrite, _ body: () throws(StoreError) -> Void) -> DashboardEvent {
        let logged = what == .name ? "display name" : what.rawValue
        do {
            try body()
            logger.info("\(logged) saved")
            return .saved(what)
        } catch {
            logger.error("\(logged) saved failed: \(error.message)")
            return .writeFailed(what, warning: Self.notSavedWarning(what, error))
        }
    }

    // MARK: - Warnings

    static func shortWarning(for error: StoreError) -> String {
        switch error {
        case .busy: "database busy - showing last saved numbers"
        case .diskFull: "disk full - showing last saved numbers"
        case .notWritable: "database not writable - showing last saved numbers"
        case .damaged: "database damaged - run `screenmates recover`"
        default: "database problem - see the log"
        }
    }

    /// What the footer says of something a key asked to save that the store did not take; it
    /// stays until that is saved, so it names what was not saved rather than how things are now.
    static func notSavedWarning(_ what: DashboardWrite, _ error: StoreError) -> String {
        let why =
            switch error {
            case .busy: "database busy"
            case .diskFull: "disk full"
            case .notWritable: "database not writable"
            case .damaged: "database damaged, run `screenmates recover`"
            default: "see the log"
            }
        return "\(what.rawValue) not saved - \(why)"
    }

    /// What the footer says while writes to the database cannot succeed. A directory that may
    /// not be written is not a problem for a database whose files are already there.
    static func shortWarning(for problem: WriteProblem) -> String? {
        switch problem {
        case .diskFull: "disk full - new usage waits for free space"
        case .readOnlyFileSystem: "data directory read-only - new usage waits"
        case .fileNotWritable: "database not writable - new usage waits"
        case .directoryNotWritable: nil
        }
    }
}
