import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesSQLiteRows

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
        let stamp = TimeFormat.fileStamp(clock.now())
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
            userID: salvage.settings?.userID ?? UserID.random(using: &generator), trackingStart: trackingStart,
            apps: salvage.settings?.apps ?? [], now: clock.now())
        if let saved = salvage.settings {
            settings = saved
            try store.updateSettings(settings)
        }
        if let machine = salvage.machine { try store.setThisMachine(machine) }
        // Pruned days first: their rows, summaries and event ids, which also seal them.
        if let pruned = salvage.pruned { try store.restore(pruned, now: clock.now()) }
        for start in stride(from: 0, to: salvage.events.count, by: 500) {
            try store.record(Array(salvage.events[start..<min(start + 500, salvage.events.count)]))
        }
        let lastReset = salvage.lastReset ?? calendar.day(containing: clock.now())
        // The new profile starts as never reset: this archives every day since tracking began,
        // derived again from the saved events.
        _ = try store.rollOver(clockDay: lastReset, calendar: calendar, now: clock.now())
        return RecoveryReport(
            eventsSaved: salvage.events.count, eventsLost: salvage.eventsLost, profileSaved: salvage.settings != nil,
            appsSaved: salvage.settings?.apps.count ?? 0, daysRebuilt: try store.history().count, damagedCopy: "")
    }

    /// Everything readable in a damaged file.
    struct Salvage {
        var settings: UserSettings?
        /// The machine the home drew: it stays the same machine of its member.
        var machine: StoredMachine?
        var trackingStart: LocalDate?
        var lastReset: LocalDate?
        var events: [UsageEvent] = []
        var eventsLost = 0
        /// The pruned days, when the home had any.
        var pruned: PrunedDays?
        /// The places in the append order of the pruned events, ascending: gaps there are no loss.
        private var prunedSequences: [Int64] = []

        /// Reads as much as possible; never throws. `path` is a copy that may be changed.
        mutating func read(from path: String) {
            Self.trustFileSize(of: path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(1)
            guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return }
            queue.inDatabase { db in
                settings = try? LocalStore.settings(db)
                if let state = try? LocalStore.dayState(db) {
                    trackingStart = state.trackingStart
                    lastReset = state.lastReset
                }
                pruned = PrunedDays.read(db)
                machine = (try? LocalStore.thisMachine(db)) ?? nil
            }
            prunedSequences = pruned?.events.map(\.seq).sorted() ?? []
            readEvents(queue)
        }

        /// A database cut short still claims its old size in its header, and SQLite then refuses
        /// to read any of it. Clearing the header's "valid for" counter makes SQLite go by the
        /// file's real size, so the pages that are there can be read.
        static func trustFileSize(of path: String) {
            guard let handle = FileHandle(forUpdatingAtPath: path) else { return }
            defer { try? handle.close() }
            guard let header = try? handle.read(upToCount: 100), header.count == 100,
                header.prefix(16) == Data("SQLite format 3\u{0}".utf8)
            else { return }
            try? handle.seek(toOffset: 92)
            try? handle.write(contentsOf: Data(repeating: 0, count: 4))
        }

        /// Reads events in `seq` order, a page of rows at a time. Where a read fails (a missing
        /// or broken page), it jumps ahead by growing steps until reading works again; the rows
        /// jumped over are counted as lost (`seq` grows by one per event, so the jump is the loss).
        private mutating func readEvents(_ queue: DatabaseQueue) {
            let recordedLast = try? queue.inDatabase { db in
                try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'usage_event'")
            }
            var after: Int64 = 0
            var seen = Set<UUID>()
            var budget = 100_000
            var limit = 500
            while budget > 0 {
                budget -= 1
                let rows = try? queue.inDatabase { db in
                    try Row.fetchAll(
                        db, sql: "SELECT * FROM usage_event WHERE seq > ? ORDER BY seq LIMIT ?",
                        arguments: [after, limit])
                }
                if let rows {
                    // A damaged tree can hand rows back out of order; take each seq once, forward.
                    let fresh = rows.filter { ((try? $0.checked("seq", in: "usage_event")) ?? Int64.min) > after }
                    guard let last = fresh.last, let lastSeq: Int64 = try? last.checked("seq", in: "usage_event")
                    else { break }
                    for row in fresh { keep(row, &seen) }
                    eventsLost += max(0, Int(lastSeq - after) - fresh.count - prunedCount(after, lastSeq))
                    after = lastSeq
                    limit = min(500, limit * 2)
                    continue
                }
                // A batch that fails may still start with good rows: go one row at a time.
                if limit > 1 {
                    limit = 1
                    continue
                }
                // Find the next place where reading works again.
                var step: Int64 = 1
                var resumed = false
                while step <= 1 << 24 && budget > 0 {
                    budget -= 1
                    let probe = try? queue.inDatabase { db in
                        try Row.fetchAll(
                            db, sql: "SELECT * FROM usage_event WHERE seq > ? ORDER BY seq LIMIT 1",
                            arguments: [after + step])
                    }
                    if let probe {
                        if let first = probe.first {
                            guard let firstSeq: Int64 = try? first.checked("seq", in: "usage_event") else { break }
                            eventsLost += max(0, Int(firstSeq - after - 1) - prunedCount(after, firstSeq - 1))
                            after = firstSeq - 1
                            resumed = true
                        }
                        break
                    }
                    step *= 2
                }
                if !resumed { break }
            }
            // Rows after the last one read that the table says it had are lost too.
            if let recordedLast = recordedLast ?? nil, recordedLast > after {
                eventsLost += max(0, Int(recordedLast - after) - prunedCount(after, recordedLast))
            }
        }

        /// How many pruned events had places in the append order after `lower`, up to `upper`.
        private func prunedCount(_ lower: Int64, _ upper: Int64) -> Int {
            func firstIndex(above value: Int64) -> Int {
                var low = 0
                var high = prunedSequences.count
                while low < high {
                    let middle = (low + high) / 2
                    if prunedSequences[middle] <= value { low = middle + 1 } else { high = middle }
                }
                return low
            }
            return max(0, firstIndex(above: upper) - firstIndex(above: lower))
        }

        private mutating func keep(_ row: Row, _ seen: inout Set<UUID>) {
            guard let event = try? LocalStore.event(from: row) else {
                eventsLost += 1
                return
            }
            if seen.insert(event.id).inserted { events.append(event) }
        }
    }
}
