import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesMonitor
import ScreenMatesStore
import ScreenMatesTerminal
import ScreenMatesUI
import Synchronization

/// How the dashboard was asked to run.
public struct DashboardOptions: Sendable {
    public var demo: Bool
    public var speed: Double?
    public var startAt: Date?
    public var seed: UInt64?
    /// Scenario for the demo monitor (a name in `assets/scenarios` or a path).
    public var scenario: String
    /// The theme named on the command line; without one, the theme in the settings.
    public var theme: String?
    public var useColor: Bool
    public var forceASCII: Bool
    /// The group store named on the command line or in the environment; without one, the store
    /// the group was joined through, else the home's default file.
    public var groupStore: GroupStoreLocation?
    /// Ring the terminal bell for each notice.
    public var bell: Bool
    /// Also send each notice to the desktop (terminal escape sequences, or notify-send).
    public var desktop: Bool
    /// A demo on the demo directory: its usage, history and notices start anew each run (the
    /// profile stays).
    public var startAfresh: Bool

    public init(
        demo: Bool = false, speed: Double? = nil, startAt: Date? = nil, seed: UInt64? = nil,
        scenario: String = "typical-day", theme: String? = nil, useColor: Bool = true, forceASCII: Bool = false,
        groupStore: GroupStoreLocation? = nil, bell: Bool = false, desktop: Bool = false, startAfresh: Bool = false
    ) {
        self.startAfresh = startAfresh
        self.bell = bell
        self.desktop = desktop
        self.demo = demo
        self.speed = speed
        self.startAt = startAt
        self.seed = seed
        self.scenario = scenario
        self.theme = theme
        self.useColor = useColor
        self.forceASCII = forceASCII
        self.groupStore = groupStore
    }
}

/// One run of the dashboard: the loop that owns the terminal.
///
/// It sleeps in `poll` until a key, a signal, a write to the local database (inotify), the
/// demo monitor, or the next moment the screen must change (the next minute on the app clock,
/// the daily reset); then it brings the numbers up to date, renders the frame and lets the
/// terminal write only the cells that changed. Nothing is drawn when nothing changed.
public final class DashboardSession {
    private let home: HomeDirectory
    private let store: LocalStore
    private let options: DashboardOptions
    private let logger: Logger
    private var theme: Theme
    private let assets: AssetCatalog
    private let settingsFile: SettingsFile
    /// Lines of the config file that could not be used, for the log and the footer.
    private var configProblems: [String]
    private let scenario: UsageScenario?
    private let clockChoice: ClockSource.Choice
    private let demo = DemoMonitor()
    private var feed: UsageFeed
    private var warning: String?
    private var groupLink: GroupLink?
    private let groupOutcomes = Mailbox<GroupOutcome>()
    private let catalogue: AppCatalogue
    private var leaderboardCache: (key: LeaderboardKey, boards: [LeaderboardPeriod: [LeaderboardEntry]])?
    private var notices: NoticeCenter?
    /// Group actions (create, join, leave) started and not yet shown.
    private var groupActionsRunning = 0
    /// When a store opened read-only may next be opened again (see `reopenIfWritable`).
    private var nextReopen = ContinuousClock.now
    /// How desktop notices reach the desktop from this terminal; found out at the first notice
    /// sent there (inside tmux that asks tmux once).
    private lazy var noticeTerminal: NoticeTerminal = {
        let found = NoticeTerminal.detect(environment: ProcessInfo.processInfo.environment)
        logger.info(
            "desktop notices", metadata: ["terminal": "\(found.kind.rawValue)", "tmux": "\(found.throughTmux)"])
        if let advice = found.advice { logger.warning("\(advice)") }
        return found
    }()

    /// What the leaderboards depend on; they are ranked again only when it changes.
    private struct LeaderboardKey: Equatable {
        var fetchedAt: Date?
        var memberCount: Int
        var today: LocalDate
        var blocks: Int
        var streak: Int
        var history: [Int]
        var name: String?
        var lastActive: Date?
    }

    /// Longest sleep without a reason to wake, as a safety net should a change notification be
    /// missed (a network file system).
    static let safetyInterval = 5.0
    /// Shortest sleep, which caps the redraw rate when the app clock runs very fast.
    static let minimumInterval = 0.1
    /// How often the system is asked again for its time zone.
    static let timeZoneCheckInterval: Duration = .seconds(60)
    /// After a write by another process is noticed, look again at these delays: the notice
    /// comes when the write-ahead log is written, a moment before SQLite publishes the commit,
    /// so the first look can find nothing new yet.
    static let recheckDelays: [Duration] = [.milliseconds(20), .milliseconds(100), .milliseconds(400)]
    /// How often a store opened read-only is opened again while nothing seems to stop writes.
    static let reopenInterval: Duration = .seconds(5)

    /// Prepares everything that can fail with a plain error message, before the screen starts.
    /// `home` must exist (`HomeDirectory.prepare`).
    public init(home: HomeDirectory, assets: AssetCatalog, options: DashboardOptions, logger: Logger) throws(AppError) {
        self.home = home
        self.options = options
        self.logger = logger
        do {
            try Terminal.preflight()
        } catch {
            throw AppError(error)
        }
        self.assets = assets
        settingsFile = SettingsFile(home: home)
        scenario = options.demo ? try assets.scenario(options.scenario) : nil
        catalogue = try assets.appCatalogue()
        let opened = try OpenedHome.open(
            home: home, assets: assets, speed: options.speed, startAt: options.startAt,
            startAfresh: options.startAfresh)
        store = opened.store
        clockChoice = opened.clock
        // `--start-at` is the instant the dashboard opens on: the first-run screens hold the clock.
        if opened.settings.displayName == nil { ClockSource.hold(clockChoice) }
        configProblems = opened.configProblems
        for problem in configProblems { logger.warning("\(problem)") }
        do throws(AppError) {
            theme =
                options.useColor
                ? try assets.theme(named: options.theme ?? opened.settings.theme.rawValue) : .monochrome
        } catch {
            if clockChoice.published { ClockSource.withdraw(from: store) }
            throw error
        }
        do {
            feed = try UsageFeed(store: store, clock: clockChoice.clock, timeZone: Self.currentTimeZone)
        } catch {
            if clockChoice.published { ClockSource.withdraw(from: store) }
            throw AppError(error)
        }
    }

    /// Runs until quit; returns the exit status (0, or 128 + the signal that ended it).
    public func run() throws(AppError) -> Int32 {
        let terminal: Terminal
        do {
            terminal = try Terminal(
                options: .init(theme: theme, useColor: options.useColor, forceASCII: options.forceASCII))
        } catch {
            if clockChoice.published { ClockSource.withdraw(from: store) }
            throw AppError(error)
        }
        defer {
            demo.stop()
            groupLink?.stop()
            terminal.stop()
            if clockChoice.published { ClockSource.withdraw(from: store) }
        }
        connectGroup(wake: terminal.wake)
        var notices = NoticeCenter(store: store, now: clockChoice.clock.now())
        self.notices = notices
        logger.info("dashboard started", metadata: ["home": "\(home.path)", "speed": "\(clockChoice.clock.speed)"])
        let watcher = DirectoryWatcher(directory: home.path, prefix: home.databaseFileName)
        var model = DashboardModel(screen: .dashboard, width: terminal.width, height: terminal.height)
        model.update(data())
        if feed.settings.displayName == nil {
            model.beginSetup(SetupFlow(catalogue: catalogue.apps, current: feed.settings.apps, name: nil))
        } else if let scenario {
            startDemo(scenario, wake: terminal.wake)
        }
        var lastRendered: DashboardModel?
        var lastZoneCheck = ContinuousClock.now
        var rechecks: [ContinuousClock.Instant] = []
        while true {
            if model != lastRendered {
                terminal.draw(ScreenRenderer.render(model, glyphs: terminal.glyphs))
                lastRendered = model
            }
            let recheckIn = rechecks.first.map { max(0, ($0 - ContinuousClock.now) / .seconds(1)) }
            let events = terminal.waitForEvents(
                timeout: min(nextWake(), recheckIn ?? .infinity),
                extraDescriptors: watcher.map { [$0.descriptor] } ?? [])
            if let ending = events.ending {
                logger.info("dashboard ended by signal", metadata: ["status": "\(ending.exitStatus)"])
                return ending.exitStatus
            }
            // Keys alone do not change the numbers; anything else that woke us may have: the
            // clock, a write by another process, the demo monitor, a resume from Ctrl-Z.
            let written = watcher?.drain() == true
            if written { rechecks = Self.recheckDelays.map { ContinuousClock.now + $0 } }
            rechecks.removeAll { $0 <= ContinuousClock.now }
            var refreshNeeded = events.keys.isEmpty || events.resumed || written
            var checkZone = events.resumed
            if events.needsFullRedraw {
                model.resize(width: terminal.width, height: terminal.height)
                lastRendered = nil
            }
            for key in events.keys {
                switch model.handle(key) {
                case .quit:
                    logger.info("dashboard quit")
                    return 0
                case .sendTestNotice:
                    let notice = NotificationScheduler.test(now: clockChoice.clock.now(), calendar: feed.calendar)
                    _ = try? store.claim(
                        deliver: [notice], countAsSent: [], at: clockChoice.clock.now(), toasted: false)
                    model.debugPanel.finished("Sent a test notice: it shows on the dashboard (esc).", error: false)
                    refreshNeeded = true
                case .syncNow:
                    groupLink?.syncNow()
                case .simulateEndOfDay:
                    simulateEndOfDay(model: &model, wake: terminal.wake)
                    refreshNeeded = true
                case .clearLocalData:
                    if groupActionsRunning > 0 {
                        model.debugPanel.finished(
                            "A group action is still running; nothing was cleared. Try again in a moment.", error: true)
                    } else if let fresh = clearLocalData(model: &model, terminal: terminal) {
                        notices = fresh
                    }
                    refreshNeeded = true
                case .refresh:
                    // Repaint every cell: something else may have written on the terminal.
                    terminal.invalidate()
                    lastRendered = nil
                    refreshNeeded = true
                    checkZone = true
                case .saveApps(let apps):
                    perform("apps saved") { () throws(StoreError) in try store.setApps(apps) }
                    var settings = feed.settings
                    settings.apps = apps
                    do {
                        try settingsFile.save(settings, keys: [.viceApps, .productiveApps, .hiddenApps])
                    } catch {
                        logger.error("saving the apps in the config file failed: \(error.message)")
                    }
                    refreshNeeded = true
                case .saveName(let name):
                    perform("display name saved") { () throws(StoreError) in try store.setDisplayName(name) }
                    refreshNeeded = true
                case .createGroup(let goal):
                    startGroupAction(.create(goal: goal), wake: terminal.wake)
                case .joinGroup(let code):
                    startGroupAction(.join(code), wake: terminal.wake)
                case .leaveGroup:
                    startGroupAction(.leave, wake: terminal.wake)
                case .changeSettings(let change):
                    changeSettings(change, model: &model, terminal: terminal)
                    refreshNeeded = true
                case .finishSetup:
                    ClockSource.release(clockChoice, store: store)
                    refresh(checkTimeZone: false)
                    connectGroup(wake: terminal.wake)
                    if let scenario { startDemo(scenario, wake: terminal.wake) }
                case nil:
                    break
                }
            }
            if applyGroupResults(to: &model, wake: terminal.wake) { refreshNeeded = true }
            if ContinuousClock.now - lastZoneCheck >= Self.timeZoneCheckInterval { checkZone = true }
            if checkZone { lastZoneCheck = ContinuousClock.now }
            if refreshNeeded || checkZone {
                reopenIfWritable(wake: terminal.wake)
                refresh(checkTimeZone: checkZone)
                if model.screen != .setup { notices.evaluate(feed: feed, mates: mates(), now: clockChoice.clock.now()) }
            }
            let delivered = notices.takeNew()
            if !delivered.isEmpty {
                for notice in delivered { logger.info("notice shown", metadata: ["key": "\(notice.key)"]) }
                if options.bell || feed.settings.notificationBell { terminal.bell() }
                if options.desktop || feed.settings.notificationDesktop {
                    let carrier = noticeTerminal
                    terminal.writeSequence(
                        delivered.map {
                            DesktopNotifier.sequences(for: $0, terminal: carrier, asciiOnly: terminal.glyphs.asciiOnly)
                        }.joined())
                    DesktopNotifier.notifySend(delivered)
                }
            }
            notices.toastsVisible = model.screen == .dashboard && !model.isTooSmall
            model.update(data(seenApps: model.screen == .settings))
            if model.screen == .debug { model.data?.debugLines = debugLines() }
        }
    }

    /// Where the group lives: the store named for this run, else the one the group was joined
    /// through, else the home's default file.
    private var groupStore: GroupStoreLocation {
        options.groupStore
            ?? (try? GroupStoreLocation.resolve(
                option: nil, environment: [:], home: home, remembered: feed.settings.group?.store))
            ?? .sqlite(path: home.path + "/group-store.sqlite")
    }

    /// Runs a store write asked for by a key; a failure shows as the warning.
    private func perform(_ what: String, _ body: () throws(StoreError) -> Void) {
        do {
            try body()
            logger.info("\(what)")
        } catch {
            logger.error("\(what) failed: \(error.message)")
            warning = Self.shortWarning(for: error)
        }
    }

    // MARK: - Debug panel

    /// Moves the simulated clock to the day's reset: the day ends as it would at its end, its
    /// notices follow, and the demo monitor (restarted) goes on from the new day's start; the
    /// usage the rest of the day would have brought never happens.
    private func simulateEndOfDay(model: inout DashboardModel, wake: WakePipe) {
        do throws(AppError) {
            let clock = try ClockSource.adjustable(clockChoice)
            let demoRan = demo.isRunning
            demo.stopAndWait()
            defer { if demoRan, let scenario { startDemo(scenario, wake: wake) } }
            let now = try ClockSource.jump(clock, to: feed.todayInterval.upperBound, store: store)
            refresh(checkTimeZone: false)
            logger.info("simulated the end of the day", metadata: ["clock": "\(TimeFormat.iso8601(now))"])
            let (hour, minute) = feed.calendar.hourAndMinute(of: now)
            model.debugPanel.finished(
                "The day is over: the clock moved to \(TimeFormat.clock(hour: hour, minute: minute)) and \(feed.today) has begun. Its notices show on the dashboard (esc).",
                error: false)
        } catch {
            model.debugPanel.finished(error.message, error: true)
        }
    }

    /// Forgets this home's data (the user confirmed it on the debug panel) and starts the first
    /// run again; returns the notice centre for the fresh data, or nil when nothing was cleared.
    /// The config file is moved aside first and put back should the database refuse, so either
    /// both are cleared or neither is.
    private func clearLocalData(model: inout DashboardModel, terminal: Terminal) -> NoticeCenter? {
        let wake = terminal.wake
        let demoRan = demo.isRunning
        // Nothing they have in hand may land in the cleared store.
        demo.stopAndWait()
        groupLink?.stopAndWait()
        groupLink = nil
        let now = clockChoice.clock.now()
        func keepEverything(_ message: String) -> NoticeCenter? {
            logger.error("clearing local data failed: \(message)")
            model.debugPanel.finished(message, error: true)
            connectGroup(wake: wake)
            if demoRan, let scenario { startDemo(scenario, wake: wake) }
            return nil
        }
        let movedAside: String?
        do {
            movedAside = try settingsFile.setAside()
        } catch {
            return keepEverything(error.message)
        }
        do {
            _ = try store.clearLocalData(
                trackingStart: feed.calendar.day(containing: now),
                apps: catalogue.defaultVice + catalogue.defaultProductive, now: now)
        } catch {
            var message = "Nothing was cleared: \(error.message)"
            if let movedAside {
                do {
                    try FileManager.default.moveItem(atPath: movedAside, toPath: settingsFile.path)
                } catch {
                    message += " \(SettingsFile.fileName) could not be put back; it is at \(movedAside)."
                }
            }
            return keepEverything(message)
        }
        logger.notice("local data cleared", metadata: ["config moved to": "\(movedAside ?? "-")"])
        // A fresh config file with every key, from the new profile's settings.
        configProblems = settingsFile.apply(to: store, catalogue: catalogue, create: true)
        do {
            feed = try UsageFeed(store: store, clock: clockChoice.clock, timeZone: Self.currentTimeZone)
        } catch {
            logger.error("reading the cleared data failed: \(error.message)")
            refresh(checkTimeZone: false)
        }
        if options.theme == nil, options.useColor, let fresh = try? assets.theme(named: feed.settings.theme.rawValue) {
            theme = fresh
            terminal.setTheme(fresh)
        }
        leaderboardCache = nil
        let notices = NoticeCenter(store: store, now: now)
        self.notices = notices
        model.debugPanel = DebugPanelState()
        model.beginSetup(SetupFlow(catalogue: catalogue.apps, current: feed.settings.apps, name: nil))
        return notices
    }

    // MARK: - Settings

    /// Saves a change from the settings screen in the database and the config file (its own
    /// line only); a new theme applies at once unless one was named on the command line.
    private func changeSettings(_ change: SettingsChange, model: inout DashboardModel, terminal: Terminal) {
        do {
            guard var settings = try store.settings() else { return }
            if case .addApp(let name, let category) = change {
                let apps = try ProfileSetup.resolveApps([name], category: category, catalogue: catalogue)
                guard let app = apps.first, !settings.apps.contains(where: { $0.id == app.id }) else {
                    model.settingsScreen?.finished(
                        "\(SafeText.displayable(name)) is already on your lists.", error: true)
                    return
                }
                settings.apps.append(app)
            } else {
                change.apply(to: &settings)
            }
            try store.updateSettings(settings)
            try settingsFile.save(settings, keys: change.keys)
            logger.info("settings changed", metadata: ["key": "\(change.key.rawValue)"])
            if case .theme(let choice) = change, options.theme == nil, options.useColor {
                theme = try assets.theme(named: choice.rawValue)
                terminal.setTheme(theme)
            }
            if case .addApp(let name, _) = change {
                model.settingsScreen?.finished("Added \(SafeText.displayable(name)).", error: false)
            }
        } catch let error as AppError {
            model.settingsScreen?.finished(error.message, error: true)
        } catch let error as StoreError {
            logger.error("saving settings failed: \(error.message)")
            model.settingsScreen?.finished(error.message, error: true)
        } catch {
            model.settingsScreen?.finished(String(describing: error), error: true)
        }
    }

    // MARK: - Group actions

    private enum GroupAction: Sendable {
        case create(goal: Int)
        case join(GroupCode)
        case leave
    }

    private enum GroupOutcome: Sendable {
        case created(Group)
        case joined(Group)
        case left(GroupCode)
        case failed(GroupActions.Failure)
    }

    /// Runs a group action in the background (the group store may be slow or away); its outcome
    /// comes back through `applyGroupResults` when the loop wakes.
    private func startGroupAction(_ action: GroupAction, wake: WakePipe) {
        let location = groupStore
        let actions = GroupActions(local: store, location: location, clock: clockChoice.clock)
        let outcomes = groupOutcomes
        groupActionsRunning += 1
        Task.detached {
            let outcome: GroupOutcome
            switch action {
            case .create(let goal):
                do throws(AppError) {
                    outcome = .created(try await actions.create(goal: goal))
                } catch {
                    outcome = .failed(.app(error))
                }
            case .join(let code):
                do throws(GroupActions.Failure) {
                    outcome = .joined(try await actions.joinExplained(code))
                } catch {
                    outcome = .failed(error)
                }
            case .leave:
                do throws(AppError) {
                    outcome = .left(try await actions.leave())
                } catch {
                    outcome = .failed(.app(error))
                }
            }
            outcomes.post(outcome)
            wake.wake()
        }
    }

    /// Shows the outcomes of finished group actions; returns whether the numbers may change
    /// (the goal is the group's now).
    private func applyGroupResults(to model: inout DashboardModel, wake: WakePipe) -> Bool {
        let finished = groupOutcomes.take()
        guard !finished.isEmpty else { return false }
        groupActionsRunning = max(0, groupActionsRunning - finished.count)
        for outcome in finished {
            switch outcome {
            case .created(let group), .joined(let group):
                let created: Bool
                if case .created = outcome { created = true } else { created = false }
                logger.info("\(created ? "created" : "joined") group \(group.code)")
                refresh(checkTimeZone: false)
                connectGroup(wake: wake)
                if model.screen == .setup {
                    model.setup?.groupSucceeded(
                        code: group.code.value, created: created, memberCount: group.memberCount)
                } else {
                    model.groupScreen.finished(
                        created
                            ? "Created group \(group.code). Share the code."
                            : "Joined group \(group.code): \(group.memberCount) members.",
                        error: false)
                }
            case .left(let code):
                logger.info("left group \(code)")
                refresh(checkTimeZone: false)
                connectGroup(wake: wake)
                model.groupScreen.finished("Left group \(code).", error: false)
            case .failed(let failure):
                if model.screen == .setup {
                    if case .store(.nameTaken) = failure {
                        model.setup?.nameRejected(failure.message)
                    } else {
                        model.setup?.groupFailed(failure.message)
                    }
                } else {
                    model.groupScreen.finished(failure.message, error: true)
                }
            }
        }
        return true
    }

    private func startDemo(_ scenario: UsageScenario, wake: WakePipe) {
        let seed = options.seed ?? Self.seed(for: feed.settings.userID)
        demo.start(
            store: store, clock: clockChoice.clock, settings: feed.settings, scenario: scenario, seed: seed,
            calendar: feed.calendar, wake: { wake.wake() })
        logger.info("demo monitor started", metadata: ["seed": "\(seed)", "scenario": "\(scenario.name)"])
    }

    /// Connects to the user's group, if they are in one.
    private func connectGroup(wake: WakePipe) {
        groupLink?.stop()
        groupLink = nil
        guard let membership = feed.settings.group else { return }
        let location = groupStore
        let link = GroupLink(
            local: store, location: location, membership: membership, userID: feed.settings.userID,
            clock: clockChoice.clock, logger: logger, wake: { wake.wake() })
        link.start()
        groupLink = link
        reportToGroup()
    }

    /// Hands the group link the current profile; it sends it if it changed.
    private func reportToGroup() {
        guard let groupLink, let name = feed.settings.displayName else { return }
        groupLink.report(
            ProfileDraft(
                displayName: name, blocksToday: feed.ledger.viceBlocks, day: feed.today,
                streak: feed.summary.streak.current, lastActive: feed.lastActive))
    }

    /// A store opened while the data directory could not be written (a file system mounted
    /// read-only) stays read-only in this process until it is opened again: once nothing stops
    /// writes, it is, with the demo monitor and the group link stopped meanwhile, and the
    /// numbers are read afresh (the daily reset and the notices can be recorded again).
    private func reopenIfWritable(wake: WakePipe) {
        guard store.isReadOnly, ContinuousClock.now >= nextReopen,
            WriteProblem.find(forDatabaseAt: home.databasePath) == nil
        else { return }
        nextReopen = ContinuousClock.now + Self.reopenInterval
        let demoRan = demo.isRunning
        demo.stopAndWait()
        groupLink?.stopAndWait()
        groupLink = nil
        defer {
            connectGroup(wake: wake)
            if demoRan, let scenario { startDemo(scenario, wake: wake) }
        }
        do {
            try store.reopen()
            feed = try UsageFeed(store: store, clock: clockChoice.clock, timeZone: Self.currentTimeZone)
            leaderboardCache = nil
            logger.notice("the database can be written again", metadata: ["read-only": "\(store.isReadOnly)"])
        } catch {
            logger.error("opening the database again failed: \(error.message)")
        }
    }

    private func refresh(checkTimeZone: Bool) {
        do {
            try feed.refresh(checkTimeZone: checkTimeZone)
            reportToGroup()
            // Reading works on a full disk or a read-only file system; say why new usage waits.
            warning =
                WriteProblem.find(forDatabaseAt: home.databasePath).flatMap(Self.shortWarning)
                ?? feed.notWritable.map { _ in "database read-only - numbers are not saved" }
        } catch {
            if warning == nil { logger.error("refresh failed: \(error.message)") }
            warning = Self.shortWarning(for: error)
        }
    }

    /// With `seenApps`, the applications a usage source saw that match none of the apps too
    /// (for the settings screen, while it is open).
    private func data(seenApps: Bool = false) -> DashboardData {
        let now = clockChoice.clock.now()
        let minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let monitorProblem = demo.currentProblem.map { _ in "demo monitor cannot write; retrying" }
        let source = options.demo ? "demo monitor" : nil
        let status = groupLink?.status
        let key = LeaderboardKey(
            fetchedAt: status?.snapshot?.fetchedAt, memberCount: status?.snapshot?.members.count ?? 0,
            today: feed.today,
            blocks: feed.ledger.viceBlocks, streak: feed.summary.streak.current,
            history: feed.history.suffix(31).map(\.viceBlocks), name: feed.settings.displayName?.value,
            lastActive: feed.lastActive)
        if leaderboardCache?.key != key {
            leaderboardCache = (key, DashboardDataBuilder.leaderboards(feed: feed, group: status))
        }
        var data = DashboardDataBuilder.make(
            feed: feed, now: minute, group: status, leaderboards: leaderboardCache?.boards,
            warning: warning ?? monitorProblem ?? configWarning, source: source)
        if let notices {
            data.notices = notices.lines
            data.toast = notices.toast()
        }
        if seenApps {
            data.seenApps = AppFiling.unplacedSeenApps(store: store, settings: feed.settings, catalogue: catalogue)
                .map { SettingsScreenState.SeenApp(name: $0.name, seconds: $0.seconds) }
        }
        return data
    }

    /// What the debug panel shows.
    private func debugLines() -> [DashboardData.DebugLine] {
        let clock = clockChoice.clock
        let status = groupLink?.status
        let recorded = (try? store.noticeKeys(day: feed.today)) ?? (keys: [], shown: 0)
        var lines: [(String, String)] = [
            ("user id", feed.settings.userID),
            ("name", feed.settings.displayName?.value ?? "(none)"),
            ("data directory", home.path),
            ("database", home.databasePath),
            ("log", home.path + "/screenmates.log"),
            ("group store", groupStore.description),
            ("group", feed.settings.group.map { "\($0.code) · goal \($0.dailyGoalBlocks)" } ?? "(none)"),
            ("app clock", "\(TimeFormat.iso8601(clock.now())) · ×\(clock.speed)"),
            ("today", "\(feed.today) · resets \(TimeFormat.iso8601(feed.todayInterval.upperBound))"),
            ("events applied", "\(feed.eventsApplied)"),
            ("last sync", status?.lastSyncedAt.map(TimeFormat.iso8601) ?? "never"),
            ("days not synced", "\(status?.unsyncedDays ?? feed.history.filter { !$0.synced }.count)"),
            ("group store state", status.map { $0.offline ? "offline" : "online" } ?? "-"),
            ("notices today", "\(recorded.shown) shown, \(recorded.keys.count - recorded.shown) counted as sent"),
            ("next notice due", notices?.nextDue.map(TimeFormat.iso8601) ?? "-"),
        ]
        if options.desktop || feed.settings.notificationDesktop {
            let carrier = noticeTerminal
            lines.append(("desktop notices", carrier.summary))
        }
        lines += recorded.keys.sorted().map { ("  recorded", $0) }
        return lines.map { DashboardData.DebugLine(label: $0.0, value: $0.1) }
    }

    /// The other members of the user's group with today's figures, for group notices.
    private func mates() -> [NotificationScheduler.Mate]? {
        guard feed.settings.group != nil, let snapshot = groupLink?.status.snapshot else { return nil }
        return snapshot.members.filter { $0.userID != feed.settings.userID }.map { profile in
            NotificationScheduler.Mate(
                userID: profile.userID, name: profile.displayName.value,
                blocksToday: profile.day == feed.today ? profile.blocksToday : nil)
        }
    }

    /// The footer's word on a config file with lines it could not use (the log has each one).
    private var configWarning: String? {
        guard !configProblems.isEmpty else { return nil }
        let count = configProblems.count
        return
            "\(SettingsFile.fileName): \(count) line\(count == 1 ? "" : "s") not used - see `screenmates config check`"
    }

    /// Real seconds until the screen must change even if nothing else happens.
    private func nextWake() -> Double {
        let clock = clockChoice.clock
        let now = clock.now()
        let intoMinute = now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        let nextMinute = (60 - intoMinute) / clock.speed
        let reset = clock.realSeconds(until: feed.todayInterval.upperBound)
        let toast = notices?.secondsUntilToastChanges() ?? .infinity
        let notice = notices?.nextDue.map { clock.realSeconds(until: $0) } ?? .infinity
        return max(Self.minimumInterval, min(nextMinute, reset, Self.safetyInterval, toast, max(0, notice)))
    }

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

    static func seed(for userID: String) -> UInt64 {
        userID.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }

    @Sendable static func currentTimeZone() -> TimeZone {
        NSTimeZone.resetSystemTimeZone()
        return TimeZone.current
    }
}
