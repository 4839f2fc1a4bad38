import GRDB

/// Stamps every row a member can read with the change that last wrote it (`seq`), and a group with
/// the last change that took a row away (`removed_seq`): what lets a reader that has seen change
/// number N read only the rows changed after N (`GroupChangeMarks`), as on PostgreSQL.
///
/// A row is stamped with its group's change number plus one: writes to the file take turns, and
/// every writing transaction moves the change number once it has written (`bump`), so each row
/// carries a number above every change number readable before its transaction committed.
///
/// The stamps are `TEMP` triggers of the store's own writer connection, installed when it opens:
/// they live in that connection, not in the shared file, so the file keeps no trigger (any
/// trigger there is refused as foreign: `ForeignSchemaObjects`) and no other program's writes
/// run them.
enum SQLiteChangeStamps {
    /// The tables whose rows readers catch up on, with their primary keys.
    private static let tables: [(name: String, key: [String])] = [
        ("member", ["code", "user_id"]),
        ("day_total", ["code", "user_id", "date"]),
        ("group_challenge", ["code", "id"]),
        ("challenge_participant", ["code", "challenge_id", "user_id"]),
        ("week_result", ["code", "user_id", "week"]),
    ]

    /// The change number a row written now carries.
    private static let next = "(SELECT change_seq + 1 FROM group_info g WHERE g.code = NEW.code)"

    static func install(_ db: Database) throws {
        for (table, key) in tables {
            let row = key.map { "\($0) = NEW.\($0)" }.joined(separator: " AND ")
            let stamp = "UPDATE \(table) SET seq = \(next) WHERE \(row);"
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER IF NOT EXISTS \(table)_stamp_insert AFTER INSERT ON main.\(table)
                    BEGIN \(stamp) END;
                    CREATE TEMP TRIGGER IF NOT EXISTS \(table)_stamp_update AFTER UPDATE ON main.\(table)
                    WHEN NEW.seq IS NOT \(next)
                    BEGIN \(stamp) END;
                    """)
            // A day total goes with its member (whose removal is marked) or when the group no
            // longer keeps it (`retainDayTotals`: older than any reader's window): neither is a
            // removal a reader must read the group whole for.
            guard table != "day_total" else { continue }
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER IF NOT EXISTS \(table)_removal AFTER DELETE ON main.\(table)
                    BEGIN
                        UPDATE group_info SET removed_seq = change_seq + 1 WHERE code = OLD.code;
                    END;
                    """)
        }
        // A new standing (coins, badges) is read by the group with the member's row: their rows
        // count as changed with it, in every group they are in.
        for event in ["INSERT", "UPDATE"] {
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER IF NOT EXISTS coin_standing_stamp_\(event.lowercased())
                    AFTER \(event) ON main.coin_standing
                    BEGIN UPDATE member SET version = version WHERE user_id = NEW.user_id; END;
                    """)
        }
        // A member's new name shows on the boards of the challenges they take part in: their
        // parts count as changed with it.
        try db.execute(
            sql: """
                CREATE TEMP TRIGGER IF NOT EXISTS member_renamed AFTER UPDATE OF display_name ON main.member
                WHEN OLD.display_name IS NOT NEW.display_name
                BEGIN
                    UPDATE challenge_participant SET seq = \(next)
                    WHERE code = NEW.code AND user_id = NEW.user_id;
                END;
                """)
    }
}
