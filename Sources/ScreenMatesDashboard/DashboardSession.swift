import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesStore
import ScreenMatesTerminal
import ScreenMatesUI
import ScreenMatesWatch

/// One run of the dashboard: everything that can fail with a plain message is prepared before
/// the screen starts (`init`); `run` opens the terminal, runs the loop (`DashboardLoop`) on it,
/// and returns once everything it started has ended and the terminal is restored.
public final class DashboardSession {
    private let dependencies: DashboardDependencies
    private let reader: FiguresReader
    private let theme: Theme
    /// Lines of the config file that could not be used, for the log and the footer.
    private let configProblems: [String]

    /// Prepares everything that can fail with a plain error message, before the screen starts.
    /// `home` must exist (`HomeDirectory.prepare`).
    public init(
        home: HomeDirectory, assets: AssetCatalog, options: DashboardOptions, timeZone: TimeZoneSource,
        logger: Logger
    ) throws(AppError) {
        do {
            try Terminal.preflight()
        } catch {
            throw AppError(error)
        }
        let scenario = options.demo ? try assets.scenario(options.scenario) : nil
        let mateProfile = options.mates > 0 ? try Self.mateProfile(scenario, assets: assets) : nil
        let catalogue = try assets.appCatalogue()
        let opened = try OpenedHome.open(
            home: home, assets: assets, timeZone: timeZone, speed: options.speed, startAt: options.startAt,
            startAfresh: options.startAfresh)
        let clock = opened.clock
        // `--start-at` is the instant the dashboard opens on: the first-run screens hold the clock.
        if opened.settings.displayName == nil { ClockSource.hold(clock) }
        configProblems = opened.configProblems
        for problem in configProblems { logger.warning("\(problem)") }
        // The machine this home runs on, drawn once (a home copied from another host draws again).
        if let found = try? ThisMachine.current(store: opened.store), found.drawn {
            let copied = found.copied ? ", drawn anew: the home was copied from another host" : ""
            logger.info("this home is the machine \(found.machine.name)\(copied)")
        }
        do throws(AppError) {
            theme =
                options.useColor
                ? try assets.theme(named: options.theme ?? opened.settings.theme.rawValue) : .monochrome
            do {
                reader = try FiguresReader(store: opened.store, clock: clock.clock, timeZone: timeZone)
            } catch {
                throw AppError(error)
            }
        } catch {
            if clock.published { ClockSource.withdraw(from: opened.store) }
            throw error
        }
        dependencies = DashboardDependencies(
            home: home, store: opened.store, clock: clock, timeZone: timeZone, options: options, assets: assets,
            catalogue: catalogue, scenario: scenario, mateProfile: mateProfile, logger: logger)
    }

    /// Runs until quit; returns the exit status (0, or 128 + the signal that ended it) once
    /// everything the session started has ended. On the main actor: the loop, which owns
    /// ncurses, holds the main thread, never a thread of the pool the background work runs on.
    @MainActor
    public func run() async throws(AppError) -> Int32 {
        let clock = dependencies.clock
        let store = dependencies.store
        let terminal: Terminal
        do {
            terminal = try Terminal(
                options: .init(
                    theme: theme, useColor: dependencies.options.useColor,
                    forceASCII: dependencies.options.forceASCII))
        } catch {
            if clock.published { ClockSource.withdraw(from: store) }
            throw AppError(error)
        }
        let tasks = BackgroundTasks()
        let inbox = DashboardInbox(wake: terminal.wakeUp)
        let runner = DashboardEffectRunner(dependencies, reader: reader, screen: terminal, inbox: inbox, tasks: tasks)
        let watchdog = PoolWatchdog(onChange: PoolWatchdog.logging(to: dependencies.logger))
        runner.poolWatchdog = watchdog
        dependencies.logger.info(
            "dashboard started", metadata: ["home": "\(dependencies.home.path)", "speed": "\(clock.clock.speed)"])
        let options = dependencies.options
        let home = dependencies.home
        var state = DashboardState(
            launch: .init(
                clockSpeed: clock.clock.speed, demo: options.demo, bell: options.bell, desktop: options.desktop,
                catalogue: dependencies.catalogue.apps, themeFollowsSettings: options.theme == nil && options.useColor,
                groupStores: runner.groupStores),
            figures: reader.figures, moment: DashboardMoment(now: clock.clock.now(), instant: .now),
            width: terminal.width, height: terminal.height, configProblems: configProblems)
        state.noticeLines = NoticeCenter(store: store, since: state.noticesSince).lines()
        let loop = DashboardLoop(
            screen: terminal, runner: runner, inbox: inbox,
            watcher: FileNotices(directory: home.path, prefix: home.databaseFileName), clock: clock.clock,
            instant: { .now }, logger: dependencies.logger)
        let status = loop.run(&state)
        runner.stopBackground()
        terminal.stop()
        await tasks.finish()
        await watchdog.stop()
        if clock.published { ClockSource.withdraw(from: store) }
        return status
    }

    /// The day the demo's mates follow: the demo's own profile, or a typical day beside a script.
    private static func mateProfile(_ scenario: UsageScenario?, assets: AssetCatalog) throws(AppError) -> UsageProfile {
        if case .profile(let profile) = scenario { return profile }
        guard case .profile(let profile) = try assets.scenario("typical-day") else {
            throw AppError("The scenario typical-day in \(assets.directory) is not a usage profile.")
        }
        return profile
    }
}
