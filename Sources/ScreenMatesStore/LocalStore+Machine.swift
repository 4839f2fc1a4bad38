import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// This home's machine among its member's machines, as the home drew it once.
public struct StoredMachine: Hashable, Sendable {
    public var id: MachineID
    public var name: MachineName
    /// What the host it was drawn on is known by (`/etc/machine-id`, else its name).
    public var host: String
    public var drawnAt: Date
    /// Whether it takes over, in a group store, the machine versions from before machines wrote as
    /// (the home had sent to a group before it drew this machine).
    public var adoptsFirst: Bool

    public init(id: MachineID, name: MachineName, host: String, drawnAt: Date, adoptsFirst: Bool = false) {
        self.id = id
        self.name = name
        self.host = host
        self.drawnAt = drawnAt
        self.adoptsFirst = adoptsFirst
    }
}

extension LocalStore {
    /// This home's machine, if it drew one. A row that cannot be right (an id or a name no
    /// machine has) reads as none, so the home draws a machine again.
    public func thisMachine() throws(StoreError) -> StoredMachine? {
        try read { db in try Self.thisMachine(db) }
    }

    static func thisMachine(_ db: Database) throws -> StoredMachine? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM this_machine WHERE id = 1") else { return nil }
        let table = "this_machine"
        guard let id = try? MachineID(validating: try row.checked("machine_id", in: table)),
            let name = try? MachineName(validating: try row.checked("name", in: table))
        else { return nil }
        return StoredMachine(
            id: id, name: name, host: try row.checked("host", in: table),
            drawnAt: Self.date(milliseconds: try row.checked("drawn_at", in: table)),
            adoptsFirst: (try row.checked("adopts_first", in: table) as Int64) != 0)
    }

    /// Keeps `machine` as this home's. The machine it replaces is kept as a former one of this
    /// home's, up to the day the home is on: what it sent up to then is in this home's history.
    public func setThisMachine(_ machine: StoredMachine) throws(StoreError) {
        try write { db in
            if let old = try String.fetchOne(db, sql: "SELECT machine_id FROM this_machine WHERE id = 1"),
                old != machine.id.value,
                let state = try Self.dayState(db)
            {
                try db.execute(
                    sql: """
                        INSERT INTO former_machine (machine_id, until_day) VALUES (?, ?)
                        ON CONFLICT (machine_id) DO UPDATE SET until_day = max(until_day, excluded.until_day)
                        """, arguments: [old, (state.lastReset ?? state.trackingStart).iso8601])
                try Self.otherMachinesChanged(db)
            }
            try db.execute(
                sql: """
                    INSERT INTO this_machine (id, machine_id, name, host, drawn_at, adopts_first)
                    VALUES (1, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET machine_id = excluded.machine_id, name = excluded.name,
                        host = excluded.host, drawn_at = excluded.drawn_at, adopts_first = excluded.adopts_first
                    """,
                arguments: [
                    machine.id.value, machine.name.value, machine.host, Self.milliseconds(machine.drawnAt),
                    machine.adoptsFirst,
                ])
        }
    }

    /// Whether this home has sent anything to a group: a profile, or a finished day of its own.
    public func hasSentToAGroup() throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT (SELECT coalesce(max(profile_synced_version), 0) > 0 FROM profile)
                        OR EXISTS (SELECT 1 FROM day_history WHERE synced = 1 AND origin = 'own')
                    """) ?? false
        }
    }
}
