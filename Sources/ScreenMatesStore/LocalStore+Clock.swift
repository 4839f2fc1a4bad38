import Foundation
import GRDB
import ScreenMatesSQLiteRows

/// A simulated app clock that a running process (a demo dashboard, a monitor started with
/// `--speed`) publishes, so other commands on the same home — `status`, a monitor started
/// beside it — follow the same clock and agree with the screen.
public struct ClockPublication: Hashable, Sendable {
    /// The app instant at `realAnchor`.
    public var origin: Date
    /// The real instant at which the app clock read `origin`.
    public var realAnchor: Date
    public var speed: Double
    /// The publishing process; the publication lapses when it is gone.
    public var pid: Int32
    /// When that process started (from `/proc`), so a new process that got the same pid is not
    /// taken for it.
    public var processStart: String?

    public init(origin: Date, realAnchor: Date, speed: Double, pid: Int32, processStart: String?) {
        self.origin = origin
        self.realAnchor = realAnchor
        self.speed = speed
        self.pid = pid
        self.processStart = processStart
    }

    /// The app instant at real instant `real`.
    public func appTime(atReal real: Date) -> Date {
        origin.addingTimeInterval(real.timeIntervalSince(realAnchor) * speed)
    }
}

extension LocalStore {
    public func publishClock(_ clock: ClockPublication) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO published_clock (id, origin_ms, real_anchor_ms, speed, pid, pid_start, published_at)
                    VALUES (1, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET origin_ms = excluded.origin_ms,
                        real_anchor_ms = excluded.real_anchor_ms, speed = excluded.speed, pid = excluded.pid,
                        pid_start = excluded.pid_start, published_at = excluded.published_at
                    """,
                arguments: [
                    Self.milliseconds(clock.origin), Self.milliseconds(clock.realAnchor), clock.speed, clock.pid,
                    clock.processStart, Self.milliseconds(Date()),
                ])
        }
    }

    public func publishedClock() throws(StoreError) -> ClockPublication? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM published_clock WHERE id = 1").map { row in
                let table = "published_clock"
                return ClockPublication(
                    origin: Self.date(milliseconds: try row.checked("origin_ms", in: table)),
                    realAnchor: Self.date(milliseconds: try row.checked("real_anchor_ms", in: table)),
                    speed: try row.checked("speed", in: table), pid: try row.checked("pid", in: table),
                    processStart: try row.checkedIfPresent("pid_start", in: table))
            }
        }
    }

    /// Removes the publication if `pid` still owns it.
    public func withdrawClock(pid: Int32) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM published_clock WHERE pid = ?", arguments: [pid]) }
    }
}
