import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesStore
import Synchronization

/// Decides what the stored blocks decide — challenges broken or kept, badges earned — on the
/// home's calendar and the app clock, through `LocalStore.settleChallenges` (exactly once, in
/// one transaction, whoever calls it).
///
/// Whatever writes blocks calls it after each write, so a monitor running alone decides a
/// challenge the moment its rule is broken; `settleSoon` does so at most once a second of real
/// time (a monitor at full rate writes thousands of blocks a second), `settle` at once.
public final class ChallengeReferee: Sendable {
    private let clock: any AppClock
    private let timeZone: TimeZoneSource
    private let logger: Logger
    private let lastSettled = Mutex<ContinuousClock.Instant?>(nil)

    public init(clock: any AppClock, timeZone: TimeZoneSource, logger: Logger) {
        self.clock = clock
        self.timeZone = timeZone
        self.logger = logger
    }

    /// Decides now. Returns the notices this call recorded first.
    @discardableResult
    public func settle(_ store: LocalStore) throws(StoreError) -> [Notice] {
        lastSettled.withLock { $0 = .now }
        guard let settings = try store.settings() else { return [] }
        let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour)
        let notices = try store.settleChallenges(
            calendar: calendar, currentGoal: settings.dailyGoalBlocks, now: clock.now())
        for notice in notices { logger.info("decided", metadata: ["notice": "\(notice.key)"]) }
        return notices
    }

    /// Decides now on `calendar`, with the goal the store's settings have today.
    public static func settle(_ store: LocalStore, calendar: DayCalendar, now: Date) throws(StoreError) -> [Notice] {
        guard let settings = try store.settings() else { return [] }
        return try store.settleChallenges(calendar: calendar, currentGoal: settings.dailyGoalBlocks, now: now)
    }

    /// Decides unless it did less than a second ago; a failure is logged (the blocks are
    /// stored: the next call decides).
    public func settleSoon(_ store: LocalStore) {
        let due = lastSettled.withLock { last -> Bool in
            guard let last, ContinuousClock.now - last < .seconds(1) else { return true }
            return false
        }
        guard due else { return }
        do {
            try settle(store)
        } catch {
            logger.warning("challenges not decided yet", metadata: ["error": "\(error.message)"])
        }
    }
}
