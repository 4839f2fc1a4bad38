import Foundation
import GRDB
import Glibc
import ScreenMatesCore

/// What `screenmates recover` saved.
public struct RecoveryReport: Hashable, Sendable {
    public var eventsSaved: Int
    /// Event rows that were found but could not be read, or held values that make no sense.
    public var eventsLost: Int
    public var profileSaved: Bool
    public var appsSaved: Int
    /// Days of history derived again from the saved events.
    public var daysRebuilt: Int
    /// Where the damaged database now is (it is never deleted).
    public var damagedCopy: String
}

/// Rescues what a damaged local database still holds.
///
/// Works on a copy of the damaged files, reads every table piece by piece (a range that fails
/// is split until the unreadable rows are isolated), checks each row, and writes what it saved
/// into a fresh database. Then the damaged files are kept under a new name and the new database
/// takes their place in one rename, so at every moment `local.sqlite` is one or the other.
public enum StoreRecovery {
    public static func recover(at path: String, clock: any AppClock, timeZone: TimeZone) throws(StoreError)
        -> RecoveryReport
    {
        let lock = try StoreLock.acquire(forStoreAt: path)
        guard lock.wasAlone else { throw .inUse(path: path) }
        let stamp = Self.stamp(clock.now())
        let work = path + ".recovering-\(stamp)"
        let damagedCopy = path + ".damaged-\(stamp)"
        let fresh = work + "/new.sqlite"
        defer { try? FileManager.default.removeItem(atPath: work) }
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: work + "/old.sqlite" + suffix)
            }
        } catch {
            throw .notWritable(path: work, detail: error.localizedDescription)
        }

        var salvage = Salvage()
        salvage.read(from: work + "/old.sqlite")
        let report = try write(salvage, to: fresh, clock: clock, timeZone: timeZone)

        // Keep the damaged files under a new name, then move the new database in with one
        // rename. Its old log files go first: they must never be replayed onto the new file.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard link(path + suffix, damagedCopy + suffix) == 0 else {
                throw .notWritable(path: damagedCopy + suffix, detail: String(cString: strerror(errno)))
            }
        }
        unlink(path + "-wal")
        unlink(path + "-shm")
        guard rename(fresh, path) == 0 else {
            throw .notWritable(path: path, detail: String(cString: strerror(errno)))
        }
        var result = report
        result.damagedCopy = damagedCopy
        return result
    }

    private static func write(_ salvage: Salvage, to fresh: String, clock: any AppClock, timeZone: TimeZone)
        throws(StoreError) -> RecoveryReport
    {
        let store = try LocalStore.open(at: fresh)
        var generator = SystemRandomNumberGenerator()
        let earliest = salvage.events.map(\.occurredAt).min() ?? clock.now()
        let dayStartHour = salvage.settings?.dayStartHour ?? 0
        let calendar = DayCalendar(timeZone: timeZone, dayStartHour: dayStartHour)
        let trackingStart = salvage.trackingStart ?? calendar.day(containing: earliest)
        var settings = try store.createProfileIfNeeded(
            userID: salvage.settings?.userID ?? UserSettings.newUserID(using: &generator), trackingStart: trackingStart,
            apps: salvage.settings?.apps ?? [], now: clock.now())
        if let saved = salvage.settings {
            settings = saved
            try store.updateSettings(settings)
        }
        for start in stride(from: 0, to: salvage.events.count, by: 500) {
            try store.record(Array(salvage.events[start..<min(start + 500, salvage.events.count)]))
        }
        let lastReset = salvage.lastReset ?? calendar.day(containing: clock.now())
        _ = try store.rollOver(clockDay: trackingStart, calendar: calendar, now: clock.now())
        _ = try store.rollOver(clockDay: lastReset, calendar: calendar, now: clock.now())
        let days = Set((0..<max(0, trackingStart.days(to: lastReset))).map { trackingStart.adding(days: $0) })
        _ = try store.refreshHistory(days: days, calendar: calendar, now: clock.now())
        return RecoveryReport(
            eventsSaved: salvage.events.count, eventsLost: salvage.eventsLost, profileSaved: salvage.settings != nil,
            appsSaved: salvage.settings?.apps.count ?? 0, daysRebuilt: try store.history().count, damagedCopy: "")
    }

    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02d-%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// Everything readable in a damaged file.
    struct Salvage {
        var settings: UserSettings?
        var trackingStart: LocalDate?
        var lastReset: LocalDate?
        var events: [UsageEvent] = []
        var eventsLost = 0

        /// Reads as much as possible; never throws.
        mutating func read(from path: String) {
            var configuration = Configuration()
            configuration.busyMode = .timeout(1)
            guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return }
            queue.inDatabase { db in
                settings = try? LocalStore.settings(db)
                if let state = try? LocalStore.dayState(db) {
                    trackingStart = state.trackingStart
                    lastReset = state.lastReset
                }
            }
            let upper =
                (try? queue.inDatabase { db in
                    try Int64.fetchOne(db, sql: "SELECT max(seq) FROM usage_event")
                        ?? Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'usage_event'")
                }) ?? nil
            var budget = 200_000
            var seen = Set<UUID>()
            readEvents(queue, from: 1, to: upper ?? 1_000_000, budget: &budget, seen: &seen)
        }

        /// Reads events with `seq` in `low...high`, splitting a range that fails.
        private mutating func readEvents(
            _ queue: DatabaseQueue, from low: Int64, to high: Int64, budget: inout Int, seen: inout Set<UUID>
        ) {
            guard low <= high, budget > 0 else { return }
            budget -= 1
            let rows = try? queue.inDatabase { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM usage_event WHERE seq BETWEEN ? AND ? ORDER BY seq",
                    arguments: [low, high])
            }
            guard let rows else {
                if low == high {
                    eventsLost += 1
                } else {
                    let middle = low + (high - low) / 2
                    readEvents(queue, from: low, to: middle, budget: &budget, seen: &seen)
                    readEvents(queue, from: middle + 1, to: high, budget: &budget, seen: &seen)
                }
                return
            }
            for row in rows {
                guard let event = try? LocalStore.event(from: row), event.seconds > 0,
                    event.seconds <= 24 * 3600, seen.insert(event.id).inserted
                else {
                    eventsLost += 1
                    continue
                }
                events.append(event)
            }
        }
    }
}
