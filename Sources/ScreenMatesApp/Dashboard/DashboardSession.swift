import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesStore
import ScreenMatesTerminal
import ScreenMatesUI
import ScreenMatesWatch

/// One run of the dashboard: the loop that owns the terminal.
///
/// Shaped like Bubble Tea: every input — a key, a resize, a signal, time passing, another
/// process's write, what the background work reports, the outcome of an effect — is a
/// `DashboardEvent`; `DashboardProgram.update` decides from the state and the event alone, and
/// returns effects; `DashboardEffects` performs them and turns what came of them into events
/// again. The loop sleeps in `poll` until there is something to do, and draws only when the
/// screen changed (the terminal then writes only the cells that differ).
public final class DashboardSession {
    private let dependencies: DashboardDependencies
    private let feed: UsageFeed
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
        let catalogue = try assets.appCatalogue()
        let opened = try OpenedHome.open(
            home: home, assets: assets, timeZone: timeZone, speed: options.speed, startAt: options.startAt,
            startAfresh: options.startAfresh)
        let clock = opened.clock
        // `--start-at` is the instant the dashboard opens on: the first-run screens hold the clock.
        if opened.settings.displayName == nil { ClockSource.hold(clock) }
        configProblems = opened.configProblems
        for problem in configProblems { logger.warning("\(problem)") }
        do throws(AppError) {
            theme =
                options.useColor
                ? try assets.theme(named: options.theme ?? opened.settings.theme.rawValue) : .monochrome
            do {
                feed = try UsageFeed(store: opened.store, clock: clock.clock, timeZone: timeZone)
            } catch {
                throw AppError(error)
            }
        } catch {
            if clock.published { ClockSource.withdraw(from: opened.store) }
            throw error
        }
        dependencies = DashboardDependencies(
            home: home, store: opened.store, clock: clock, timeZone: timeZone, options: options, assets: assets,
            catalogue: catalogue, scenario: scenario, logger: logger)
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
        let wake = terminal.wake
        let inbox = DashboardInbox(wake: { wake.wake() })
        let effects = DashboardEffects(
            dependencies, feed: feed, theme: theme, screen: terminal, inbox: inbox, tasks: tasks)
        dependencies.logger.info(
            "dashboard started", metadata: ["home": "\(dependencies.home.path)", "speed": "\(clock.clock.speed)"])
        let status = loop(terminal: terminal, effects: effects, inbox: inbox)
        effects.stopBackground()
        terminal.stop()
        await tasks.finish()
        if clock.published { ClockSource.withdraw(from: store) }
        return status
    }

    /// The loop: decide and do until nothing follows, draw what changed, wait for what comes.
    private func loop(terminal: Terminal, effects: DashboardEffects, inbox: DashboardInbox) -> Int32 {
        let options = dependencies.options
        var state = DashboardState(
            setting: .init(
                clockSpeed: dependencies.clock.clock.speed, demo: options.demo, bell: options.bell,
                desktop: options.desktop, catalogue: dependencies.catalogue.apps),
            numbers: feed.numbers, moment: moment(), width: terminal.width, height: terminal.height,
            configProblems: configProblems)
        state.noticeLines = effects.notices.lines()
        let home = dependencies.home
        let watcher = FileNotices(directory: home.path, prefix: home.databaseFileName)
        var pending = DashboardProgram.start(&state)
        var shown: (model: DashboardModel, repaints: Int)?
        while true {
            while !pending.isEmpty {
                let outcomes = DashboardEffect.coalesced(pending).flatMap(effects.perform)
                pending = outcomes.flatMap { DashboardProgram.update(&state, $0) }
            }
            if let status = state.exitStatus {
                dependencies.logger.info("dashboard ended", metadata: ["status": "\(status)"])
                return status
            }
            if shown?.model != state.model || shown?.repaints != state.repaints {
                terminal.draw(ScreenRenderer.render(state.model, glyphs: terminal.glyphs))
                shown = (state.model, state.repaints)
            }
            let woke = terminal.waitForEvents(
                timeout: DashboardProgram.secondsUntilWake(state, at: moment()),
                extraDescriptors: watcher.map { [$0.descriptor] } ?? [])
            let written = watcher?.drain() == true
            let posted = inbox.take()
            let keys = woke.keys.filter { $0 != .resize }
            var events: [DashboardEvent] = [
                .tick(moment(), timedOut: keys.isEmpty && !woke.resumed && !written && posted.isEmpty)
            ]
            if let ending = woke.ending { events.append(.ended(ending)) }
            if woke.needsFullRedraw {
                events.append(.resized(width: terminal.width, height: terminal.height))
                shown = nil
            }
            if woke.resumed { events.append(.resumed) }
            if written { events.append(.databaseWritten) }
            events += keys.map(DashboardEvent.key) + posted
            pending = events.flatMap { DashboardProgram.update(&state, $0) }
        }
    }

    /// The demo monitor's seed for a user, when none is given: the same user sees the same day.
    static func seed(for userID: UserID) -> UInt64 { DashboardEffects.seed(for: userID) }

    private func moment() -> DashboardMoment {
        DashboardMoment(now: dependencies.clock.clock.now(), instant: .now)
    }
}
