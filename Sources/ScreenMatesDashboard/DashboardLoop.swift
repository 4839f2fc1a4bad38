import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesUI
import ScreenMatesWatch

/// The dashboard's runtime, shaped like Bubble Tea's program: every input — a key, a resize, a
/// signal, time passing, another process's write, what the background work reports, the outcome
/// of an effect — is a `DashboardEvent`; `DashboardUpdate.update` decides from the state and the
/// event alone and returns effects; the runner performs them and turns what came of them into
/// events again. The loop itself decides nothing: it sleeps in the screen's wait until there is
/// something to do or the instant the state asks to be woken at, and draws only when the screen
/// changed (the screen then writes only the cells that differ).
///
/// It takes any `DashboardScreen`, so the tests run it whole on a scripted screen, with the
/// monotonic clock injected (`instant`) as the app clock is.
struct DashboardLoop {
    let screen: any DashboardScreen
    let runner: DashboardEffectRunner
    let inbox: DashboardInbox
    /// Another process's writes to the home's database, where inotify is there to tell them.
    let watcher: FileNotices?
    let clock: any AppClock
    let instant: @Sendable () -> ContinuousClock.Instant
    let logger: Logger

    /// Runs from `state` until the state has an exit status, and returns it.
    func run(_ state: inout DashboardState) -> Int32 {
        var pending = DashboardUpdate.start(&state)
        var shown: (model: ScreensModel, repaints: Int)?
        while true {
            while !pending.isEmpty {
                let batch = state
                let outcomes = DashboardEffect.coalesced(pending).flatMap { runner.perform($0, in: batch) }
                pending = outcomes.flatMap { DashboardUpdate.update(&state, $0) }
            }
            if let status = state.exitStatus {
                logger.info("dashboard ended", metadata: ["status": "\(status)"])
                return status
            }
            if shown?.model != state.model || shown?.repaints != state.repaints {
                screen.draw(ScreenRenderer.render(state.model, glyphs: screen.glyphs))
                shown = (state.model, state.repaints)
            }
            let woke = screen.nextEvents(
                timeout: DashboardUpdate.secondsUntilWake(state, at: moment()),
                watching: watcher.map { [$0.descriptor] } ?? [])
            let written = watcher?.drain() == true
            let posted = inbox.take()
            let keys = woke.keys.filter { $0 != .resize }
            var events: [DashboardEvent] = [
                .tick(moment(), timedOut: keys.isEmpty && !woke.resumed && !written && posted.isEmpty)
            ]
            if let exitStatus = woke.exitStatus { events.append(.ended(exitStatus: exitStatus)) }
            if woke.needsFullRedraw {
                events.append(.resized(width: screen.width, height: screen.height))
                shown = nil
            }
            if woke.resumed { events.append(.resumed) }
            if written { events.append(.databaseWritten) }
            events += keys.map(DashboardEvent.key) + posted
            pending = events.flatMap { DashboardUpdate.update(&state, $0) }
        }
    }

    private func moment() -> DashboardMoment {
        DashboardMoment(now: clock.now(), instant: instant())
    }
}
