import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesStore
import ScreenMatesTerminal
import ScreenMatesUI

/// How the dashboard was asked to run.
public struct DashboardOptions: Sendable {
    public var demo: Bool
    public var speed: Double?
    public var startAt: Date?
    public var seed: UInt64?
    /// Scenario for the demo monitor (a name in `assets/scenarios` or a path).
    public var scenario: String
    public var theme: String
    public var useColor: Bool
    public var forceASCII: Bool

    public init(
        demo: Bool = false, speed: Double? = nil, startAt: Date? = nil, seed: UInt64? = nil,
        scenario: String = "typical-day", theme: String = "terminal", useColor: Bool = true, forceASCII: Bool = false
    ) {
        self.demo = demo
        self.speed = speed
        self.startAt = startAt
        self.seed = seed
        self.scenario = scenario
        self.theme = theme
        self.useColor = useColor
        self.forceASCII = forceASCII
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
    private let theme: Theme
    private let scenario: UsageScenario?
    private let clockChoice: ClockSource.Choice
    private let demo = DemoMonitor()
    private var feed: UsageFeed
    private var warning: String?

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
        theme = options.useColor ? try assets.theme(named: options.theme) : .monochrome
        scenario = options.demo ? try assets.scenario(options.scenario) : nil
        let opened = try OpenedHome.open(home: home, assets: assets, speed: options.speed, startAt: options.startAt)
        store = opened.store
        clockChoice = opened.clock
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
            terminal.stop()
            if clockChoice.published { ClockSource.withdraw(from: store) }
        }
        logger.info("dashboard started", metadata: ["home": "\(home.path)", "speed": "\(clockChoice.clock.speed)"])
        let watcher = DirectoryWatcher(directory: home.path, prefix: home.databaseFileName)
        var model = DashboardModel(
            screen: feed.settings.displayName == nil ? .namePrompt : .dashboard, width: terminal.width,
            height: terminal.height)
        model.update(data())
        if let scenario, feed.settings.displayName != nil { startDemo(scenario, wake: terminal.wake) }
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
                case .refresh:
                    // Repaint every cell: something else may have written on the terminal.
                    terminal.invalidate()
                    lastRendered = nil
                    refreshNeeded = true
                    checkZone = true
                case .saveName(let name):
                    save(name, model: &model, wake: terminal.wake)
                case nil:
                    break
                }
            }
            if ContinuousClock.now - lastZoneCheck >= Self.timeZoneCheckInterval { checkZone = true }
            if checkZone { lastZoneCheck = ContinuousClock.now }
            if refreshNeeded || checkZone { refresh(checkTimeZone: checkZone) }
            model.update(data())
        }
    }

    private func save(_ name: DisplayName, model: inout DashboardModel, wake: WakePipe) {
        do {
            try store.setDisplayName(name)
            logger.info("display name saved")
            refresh(checkTimeZone: false)
            model.screen = .dashboard
            if let scenario { startDemo(scenario, wake: wake) }
        } catch {
            model.nameError = error.message
        }
    }

    private func startDemo(_ scenario: UsageScenario, wake: WakePipe) {
        let seed = options.seed ?? Self.seed(for: feed.settings.userID)
        demo.start(
            store: store, clock: clockChoice.clock, settings: feed.settings, scenario: scenario, seed: seed,
            calendar: feed.calendar, wake: { wake.wake() })
        logger.info("demo monitor started", metadata: ["seed": "\(seed)", "scenario": "\(scenario.name)"])
    }

    private func refresh(checkTimeZone: Bool) {
        do {
            try feed.refresh(checkTimeZone: checkTimeZone)
            warning = feed.notWritable.map { _ in "database read-only - numbers are not saved" }
        } catch {
            if warning == nil { logger.error("refresh failed: \(error.message)") }
            warning = Self.shortWarning(for: error)
        }
    }

    private func data() -> DashboardData {
        let now = clockChoice.clock.now()
        let minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let monitorProblem = demo.currentProblem.map { _ in "demo monitor cannot write; retrying" }
        let source = options.demo ? "demo monitor" : nil
        return DashboardDataBuilder.make(feed: feed, now: minute, warning: warning ?? monitorProblem, source: source)
    }

    /// Real seconds until the screen must change even if nothing else happens.
    private func nextWake() -> Double {
        let clock = clockChoice.clock
        let now = clock.now()
        let intoMinute = now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        let nextMinute = (60 - intoMinute) / clock.speed
        let reset = clock.realSeconds(until: feed.todayInterval.upperBound)
        return max(Self.minimumInterval, min(nextMinute, reset, Self.safetyInterval))
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

    static func seed(for userID: String) -> UInt64 {
        userID.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }

    @Sendable static func currentTimeZone() -> TimeZone {
        NSTimeZone.resetSystemTimeZone()
        return TimeZone.current
    }
}
