import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesStore
import Synchronization

/// The daily prune (`prune_keep_days` in the config file): at most once per day in a process —
/// the dashboard's or a monitor's — the daily reset that is due is run (it is the same whichever
/// process runs it) and the events of days older than the days kept are folded into their day
/// rows (`LocalStore.prune`). Without compacting the file: another process may be
/// writing, and SQLite uses the freed pages again; `screenmates prune` compacts.
public final class DailyPrune: Sendable {
    private let clock: any AppClock
    private let timeZone: TimeZoneSource
    private let logger: Logger
    /// The day it last looked, in this process.
    private let lastDay = Mutex<LocalDate?>(nil)

    public init(clock: any AppClock, timeZone: TimeZoneSource, logger: Logger) {
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
    }

    /// Prunes `store` when the settings ask for it and it has not been done today.
    public func runIfDue(_ store: LocalStore) {
        guard let settings = try? store.settings(), settings.pruneKeepDays > 0 else { return }
        let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour)
        let today = calendar.day(containing: clock.now())
        guard
            lastDay.withLock({ last in
                defer { last = today }
                return last != today
            })
        else { return }
        do {
            // Finished days are archived first (as the dashboard would): only archived days are pruned.
            _ = try store.rollOver(clockDay: today, calendar: calendar, now: clock.now())
            let report = try store.prune(
                keepDays: settings.pruneKeepDays, today: today, calendar: calendar, compact: false)
            if !report.days.isEmpty {
                logger.notice(
                    "daily prune", metadata: ["days": "\(report.days.count)", "events": "\(report.events)"])
            }
        } catch {
            logger.warning("the daily prune did not run: \(error.message)")
        }
    }
}
