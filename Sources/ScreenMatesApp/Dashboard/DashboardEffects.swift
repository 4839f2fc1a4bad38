import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesMonitor
import ScreenMatesStore
import ScreenMatesUI

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
    let logger: Logger
}

/// Performs the dashboard's effects: the only part of the dashboard that reads and writes the
/// store and the config file, starts background work and talks to the screen beyond drawing.
/// Each effect's outcome comes back as events, either at once (the returned ones) or, for work
/// in the background, through the inbox.
///
/// It lives on the loop's thread; the work it starts belongs to `tasks`, which the session
/// awaits before it returns.
final class DashboardEffects {
    let dependencies: DashboardDependencies
    let screen: any DashboardScreen
    let inbox: DashboardInbox
    let tasks: BackgroundTasks
    let settingsFile: SettingsFile
    /// The figures, read from the store (only what changed).
    var feed: UsageFeed
    var notices: NoticeCenter
    let demo = DemoMonitor()
    var groupLink: GroupLink?
    /// The group's games (challenges, coins, weeks), exchanged beside the group link.
    var gamesLink: GroupGamesLink?
    var theme: Theme
    /// The last store warning, so that a failure is logged once, not on every refresh.
    private var warning: String?
    /// When a store opened read-only may next be opened again (see `reopenIfWritable`).
    private var nextReopen = ContinuousClock.now
    let referee: ChallengeReferee
    /// How desktop notices reach the desktop from this terminal; found out at the first notice
    /// sent there (inside tmux that asks tmux once).
    lazy var noticeTerminal: NoticeTerminal = {
        let found = NoticeTerminal.detect(environment: dependencies.options.environment, in: tasks)
        logger.info(
            "desktop notices", metadata: ["terminal": "\(found.kind.rawValue)", "tmux": "\(found.throughTmux)"])
        if let advice = found.advice { logger.warning("\(advice)") }
        return found
    }()

    /// How often a store opened read-only is opened again while nothing seems to stop writes.
    static let reopenInterval: Duration = .seconds(5)

    init(
        _ dependencies: DashboardDependencies, feed: UsageFeed, theme: Theme, screen: any DashboardScreen,
        inbox: DashboardInbox, tasks: BackgroundTasks
    ) {
        self.dependencies = dependencies
        self.feed = feed
        self.theme = theme
        self.screen = screen
        self.inbox = inbox
        self.tasks = tasks
        settingsFile = SettingsFile(home: dependencies.home)
        notices = NoticeCenter(store: dependencies.store, now: dependencies.clock.clock.now())
        referee = ChallengeReferee(
            clock: dependencies.clock.clock, timeZone: dependencies.timeZone, logger: dependencies.logger)
    }

    var store: LocalStore { dependencies.store }
    var clock: any AppClock { dependencies.clock.clock }
    var logger: Logger { dependencies.logger }

    /// Stops the background work that writes to the store; it ends soon after (the session
    /// awaits `tasks`), and nothing more of it reaches the store.
    func stopBackground() {
        demo.stop()
        groupLink?.stop()
        groupLink = nil
        gamesLink?.stop()
        gamesLink = nil
    }

    func perform(_ effect: DashboardEffect) -> [DashboardEvent] {
        switch effect {
        case .refresh(let checkTimeZone):
            return refresh(checkTimeZone: checkTimeZone)
        case .lookAtNotices(let mates):
            let outcome = notices.evaluate(numbers: feed.numbers, mates: mates, now: clock.now())
            for record in outcome.shown { logger.info("notice shown", metadata: ["key": "\(record.notice.key)"]) }
            return [.noticesLooked(outcome)]
        case .deliver(let delivered, let bell, let desktop):
            if bell { screen.bell() }
            if desktop {
                let carrier = noticeTerminal
                let ascii = screen.glyphs.asciiOnly
                screen.writeSequence(
                    delivered.map { DesktopNotifier.sequences(for: $0, terminal: carrier, asciiOnly: ascii) }.joined())
                DesktopNotifier.notifySend(delivered, in: tasks)
            }
            return []
        case .repaintAll:
            screen.invalidate()
            return []
        case .reportProfile(let draft):
            groupLink?.report(draft)
            return []
        case .connectGroup:
            return [connectGroup()]
        case .syncNow:
            groupLink?.syncNow()
            return []
        case .startGroupAction(let request):
            startGroupAction(request)
            return []
        case .saveApps(let apps):
            return saveApps(apps)
        case .saveName(let name):
            return write("display name saved") { () throws(StoreError) in try store.setDisplayName(name) }
        case .changeSettings(let change):
            return [changeSettings(change)]
        case .sendTestNotice:
            let notice = NotificationScheduler.test(now: clock.now(), calendar: feed.calendar)
            _ = try? store.claim(deliver: [notice], countAsSent: [], at: clock.now(), toasted: false)
            return [.testNoticeSent]
        case .endDay:
            return endDay()
        case .clearLocalData:
            return [clearLocalData()]
        case .startDemo:
            startDemo()
            return []
        case .releaseClock:
            ClockSource.release(dependencies.clock, store: store)
            return []
        case .releaseStartupPages:
            // The statements start-up prepared and the pages it read first: the idle dashboard
            // asks for a few of them again, once a minute at most.
            store.releaseMemory()
            let kilobytes = StartupPages.release()
            dependencies.logger.debug("start-up pages handed back", metadata: ["KiB": "\(kilobytes)"])
            return []
        case .gatherDebugFacts(let nextNoticeDue):
            return [.debugFacts(debugLines(nextNoticeDue: nextNoticeDue))]
        case .gatherGames:
            let status = gamesLink?.status
            return [
                .gamesRead(
                    gamesSupport.gamesData(
                        settings: feed.settings, snapshot: status?.snapshot, offline: status?.offline ?? false,
                        names: memberNames))
            ]
        case .pokeGames:
            gamesLink?.poke()
            return []
        case .gameAction(let action):
            startGameAction(action)
            return []
        case .gatherSeenApps:
            let seen = AppFiling.unplacedSeenApps(
                store: store, settings: feed.settings, catalogue: dependencies.catalogue)
            return [.seenApps(seen.map { SettingsScreenState.SeenApp(name: $0.name, seconds: $0.seconds) })]
        }
    }

    // MARK: - The figures

    /// Reads the figures again (what new blocks, or a new day, decided: challenges and badges
    /// are settled; the notices wait for their own look).
    func refresh(checkTimeZone: Bool) -> [DashboardEvent] {
        let reopened = reopenIfWritable()
        do {
            if try feed.refresh(checkTimeZone: checkTimeZone) { referee.settleSoon(store) }
            // Reading works on a full disk or a read-only file system; say why new usage waits.
            warning =
                WriteProblem.find(forDatabaseAt: dependencies.home.databasePath).flatMap(Self.shortWarning)
                ?? feed.notWritable.map { _ in "database read-only - numbers are not saved" }
        } catch {
            if warning == nil { logger.error("refresh failed: \(error.message)") }
            warning = Self.shortWarning(for: error)
        }
        return reopened + [.numbersRead(feed.numbers, warning: warning)]
    }

    /// A store opened while the data directory could not be written (a file system mounted
    /// read-only) stays read-only in this process until it is opened again: once nothing stops
    /// writes, it is, with the demo monitor and the group link stopped meanwhile, and the
    /// numbers are read afresh (the daily reset and the notices can be recorded again).
    private func reopenIfWritable() -> [DashboardEvent] {
        guard store.isReadOnly, ContinuousClock.now >= nextReopen,
            WriteProblem.find(forDatabaseAt: dependencies.home.databasePath) == nil
        else { return [] }
        nextReopen = ContinuousClock.now + Self.reopenInterval
        let demoRan = demo.isRunning
        let linked = groupLink != nil
        stopBackground()
        do {
            try store.reopen()
            feed = try UsageFeed(store: store, clock: clock, timeZone: dependencies.timeZone)
            logger.notice("the database can be written again", metadata: ["read-only": "\(store.isReadOnly)"])
        } catch {
            logger.error("opening the database again failed: \(error.message)")
        }
        if demoRan { startDemo() }
        return linked ? [connectGroup()] : []
    }

    // MARK: - The group

    /// Where the group lives: the store named for this run, else the one the group was joined
    /// through, else the home's default file.
    var groupStore: GroupStoreLocation {
        let home = dependencies.home
        return dependencies.options.groupStore
            ?? (try? GroupStoreLocation.resolve(
                option: nil, environment: dependencies.options.environment, home: home,
                remembered: feed.settings.group?.store, named: false))
            ?? .sqlite(path: home.path + "/group-store.sqlite")
    }

    /// Connects to the user's group, if they are in one (after leaving the links it had): the
    /// group link and the games link, each owned by the session's tasks.
    func connectGroup() -> DashboardEvent {
        groupLink?.stop()
        groupLink = nil
        gamesLink?.stop()
        gamesLink = nil
        guard let membership = feed.settings.group else { return .groupConnected(nil) }
        let inbox = self.inbox
        let link = GroupLink(
            local: store, location: groupStore, membership: membership, userID: feed.settings.userID, clock: clock,
            timeZone: dependencies.timeZone, logger: logger, onChange: { inbox.post(.groupChanged($0)) })
        tasks.start { await link.run() }
        groupLink = link
        let games = GroupGamesLink(
            games: GroupGames(
                local: store, membership: membership, userID: feed.settings.userID, clock: clock,
                calendar: feed.calendar),
            location: groupStore, logger: logger, onChange: { _ in inbox.post(.gamesChanged) })
        tasks.start { await games.run() }
        gamesLink = games
        return .groupConnected(link.status)
    }

    /// What the game screens need: the store, the clock, the day, the group's games.
    var gamesSupport: GameScreensSupport {
        GameScreensSupport(
            local: store, clock: clock, calendar: feed.calendar, games: gamesLink?.games,
            location: feed.settings.group != nil ? groupStore : nil)
    }

    /// The group's members' names by user id, as the group link last saw them.
    private var memberNames: [UserID: String] {
        Dictionary(
            (groupLink?.status.snapshot?.members ?? []).map { ($0.userID, $0.displayName.value) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Does what the challenges screen asked for in the background (it may ask the group store);
    /// then decides what the user's blocks decide now, and says how it went through the inbox.
    private func startGameAction(_ action: GameScreensSupport.Action) {
        let support = gamesSupport
        let referee = self.referee
        let store = self.store
        let inbox = self.inbox
        let logger = self.logger
        tasks.start {
            let (message, error) = await support.perform(action)
            logger.info("challenge screen: \(message)")
            referee.settleSoon(store)
            inbox.post(.gameActionFinished(message: message, error: error))
        }
    }

    /// Runs a group action in the background (the group store may be slow or away); its outcome
    /// comes back through the inbox.
    private func startGroupAction(_ request: GroupActionRequest) {
        let actions = GroupActions(local: store, location: groupStore, clock: clock, timeZone: dependencies.timeZone)
        let inbox = self.inbox
        let logger = self.logger
        tasks.start {
            let outcome: GroupActionOutcome
            switch request {
            case .create(let goal):
                do throws(AppError) {
                    outcome = .created(try await actions.create(goal: goal))
                } catch {
                    outcome = .failed(message: error.message, nameTaken: false)
                }
            case .join(let code):
                do throws(GroupActions.Failure) {
                    outcome = .joined(try await actions.joinExplained(code))
                } catch {
                    if case .store(.nameTaken) = error {
                        outcome = .failed(message: error.message, nameTaken: true)
                    } else {
                        outcome = .failed(message: error.message, nameTaken: false)
                    }
                }
            case .leave:
                do throws(AppError) {
                    outcome = .left(try await actions.leave())
                } catch {
                    outcome = .failed(message: error.message, nameTaken: false)
                }
            }
            switch outcome {
            case .created(let group): logger.info("created group \(group.code)")
            case .joined(let group): logger.info("joined group \(group.code)")
            case .left(let code): logger.info("left group \(code)")
            case .failed(let message, _): logger.info("group action refused: \(message)")
            }
            inbox.post(.groupActionFinished(outcome))
        }
    }

    // MARK: - The demo

    func startDemo() {
        guard let scenario = dependencies.scenario else { return }
        let seed = dependencies.options.seed ?? Self.seed(for: feed.settings.userID)
        let inbox = self.inbox
        demo.start(
            store: store, clock: clock, settings: feed.settings, scenario: scenario, seed: seed,
            calendar: feed.calendar, owner: tasks, onRecorded: { inbox.post(.demoRecorded) },
            onProblem: { inbox.post(.demoProblem($0)) })
        logger.info("demo monitor started", metadata: ["seed": "\(seed)", "scenario": "\(scenario.name)"])
    }

    static func seed(for userID: UserID) -> UInt64 {
        userID.value.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }

    // MARK: - Writes asked for by keys

    private func saveApps(_ apps: [TrackedApp]) -> [DashboardEvent] {
        let events = write("apps saved") { () throws(StoreError) in try store.setApps(apps) }
        var settings = feed.settings
        settings.apps = apps
        do {
            try settingsFile.save(settings, keys: [.viceApps, .productiveApps, .hiddenApps])
        } catch {
            logger.error("saving the apps in the config file failed: \(error.message)")
        }
        return events
    }

    /// Runs a store write asked for by a key; a failure shows as the warning.
    private func write(_ what: String, _ body: () throws(StoreError) -> Void) -> [DashboardEvent] {
        do {
            try body()
            logger.info("\(what)")
            return []
        } catch {
            logger.error("\(what) failed: \(error.message)")
            return [.writeFailed(warning: Self.shortWarning(for: error))]
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
