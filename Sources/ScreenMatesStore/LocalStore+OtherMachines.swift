import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// One day of one of the member's other machines, as the group store said it: its own vice blocks,
/// the goal it judged them by, and its productive blocks (0 when it said none).
public struct OtherMachineDay: Hashable, Sendable {
    /// The machine's id, or `first` for the machine versions from before machines write as.
    public var machine: String
    public var date: LocalDate
    public var viceBlocks: Int
    public var goalBlocks: Int
    public var productiveBlocks: Int

    public init(machine: String, date: LocalDate, viceBlocks: Int, goalBlocks: Int, productiveBlocks: Int = 0) {
        self.productiveBlocks = productiveBlocks
        self.machine = machine
        self.date = date
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
    }
}

extension LocalStore {
    /// A number that moves whenever the other machines' days change (or are cleared).
    public func otherMachinesVersion() throws(StoreError) -> Int64 {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT other_machines_version FROM profile WHERE id = 1") ?? 0
        }
    }

    /// The other machines' days, summed by day: every day but the ones restored
    /// from a group, which hold the member's sum already, and the days of a machine this home was
    /// before, up to the day it left it (they are in its own history).
    public func otherMachinesTotals() throws(StoreError) -> [LocalDate: OtherMachinesTotal] {
        try read { db in try Self.otherMachinesTotals(db) }
    }

    static func otherMachinesTotals(_ db: Database) throws -> [LocalDate: OtherMachinesTotal] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT date, min(sum(vice_blocks), 1440) AS vice, max(goal_blocks) AS goal,
                    min(sum(productive_blocks), 1440) AS productive
                FROM other_machine_day o
                WHERE date NOT IN (SELECT date FROM day_history WHERE origin = 'restored')
                    AND NOT EXISTS (
                        SELECT 1 FROM former_machine f WHERE f.machine_id = o.machine_id AND o.date <= f.until_day)
                GROUP BY date
                """)
        var totals: [LocalDate: OtherMachinesTotal] = [:]
        for row in rows {
            let table = "other_machine_day"
            guard let date = LocalDate(iso8601: try row.checked("date", in: table)) else {
                throw UnreadableValue(table: table, column: "date")
            }
            totals[date] = OtherMachinesTotal(
                viceBlocks: try row.checked("vice", in: table), goalBlocks: try row.checked("goal", in: table),
                productiveBlocks: try row.checked("productive", in: table))
        }
        return totals
    }

    /// The newest day kept of each other machine.
    public func otherMachinesLatestDays() throws(StoreError) -> [String: LocalDate] {
        try read { db in
            var latest: [String: LocalDate] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT machine_id, max(date) AS date FROM other_machine_day GROUP BY machine_id")
            {
                let table = "other_machine_day"
                guard let date = LocalDate(iso8601: try row.checked("date", in: table)) else {
                    throw UnreadableValue(table: table, column: "date")
                }
                latest[try row.checked("machine_id", in: table)] = date
            }
            return latest
        }
    }

    /// Keeps what the group store said of the other machines: `days` replace every day kept in
    /// `window` (every day kept, when nil). Days outside it stay, so the history keeps what the store
    /// no longer holds. Returns whether anything changed; only then does the version move.
    @discardableResult
    public func keepOtherMachineDays(_ days: [OtherMachineDay], replacing window: ClosedRange<LocalDate>?)
        throws(StoreError) -> Bool
    {
        try write { db in
            let (first, last) = (window?.lowerBound.iso8601 ?? "", window?.upperBound.iso8601 ?? "~")
            let kept = try Row.fetchAll(
                db,
                sql: """
                    SELECT machine_id, date, vice_blocks, goal_blocks, productive_blocks FROM other_machine_day
                    WHERE date BETWEEN ? AND ?
                    """, arguments: [first, last]
            ).map { row -> [String] in
                [
                    row["machine_id"], row["date"], String(row["vice_blocks"] as Int64),
                    String(row["goal_blocks"] as Int64), String(row["productive_blocks"] as Int64),
                ]
            }
            let days = days.map {
                OtherMachineDay(
                    machine: $0.machine, date: $0.date, viceBlocks: min(max($0.viceBlocks, 0), 1440),
                    goalBlocks: min(max($0.goalBlocks, 0), 96), productiveBlocks: min(max($0.productiveBlocks, 0), 1440)
                )
            }
            let given = days.map {
                [
                    $0.machine, $0.date.iso8601, String($0.viceBlocks), String($0.goalBlocks),
                    String($0.productiveBlocks),
                ]
            }
            guard Set(kept) != Set(given) else { return false }
            try db.execute(sql: "DELETE FROM other_machine_day WHERE date BETWEEN ? AND ?", arguments: [first, last])
            for day in days {
                try db.execute(
                    sql: """
                        INSERT INTO other_machine_day (machine_id, date, vice_blocks, goal_blocks, productive_blocks)
                        VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (machine_id, date) DO UPDATE SET vice_blocks = excluded.vice_blocks,
                            goal_blocks = excluded.goal_blocks, productive_blocks = excluded.productive_blocks
                        """,
                    arguments: [day.machine, day.date.iso8601, day.viceBlocks, day.goalBlocks, day.productiveBlocks])
            }
            try Self.otherMachinesChanged(db)
            return true
        }
    }

    /// Forgets the other machines' days: they were another group's.
    static func forgetOtherMachines(_ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM other_machine_day)") == true else { return }
        try db.execute(sql: "DELETE FROM other_machine_day")
        try otherMachinesChanged(db)
    }

    static func otherMachinesChanged(_ db: Database) throws {
        try db.execute(sql: "UPDATE profile SET other_machines_version = other_machines_version + 1 WHERE id = 1")
    }
}
