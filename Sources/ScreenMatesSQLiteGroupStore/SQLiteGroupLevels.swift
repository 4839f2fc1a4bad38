import Foundation
import GRDB
import ScreenMatesSQLiteRows

/// The group-store file's schema after GRDB's first migration, as numbered levels, each
/// recorded in `schema_level` with the oldest client version that may still use the file.
///
/// Level 2 adds only tables and columns with defaults, so the first version keeps using a file
/// at level 2 (it sees GRDB's migrations unchanged) and is compatible from 1.
/// Level 3 stamps rows with change numbers, which only a version that stamps keeps right: it is
/// compatible from 3. Level 4 adds the tables of challenges open to all: compatible from 3.
enum SQLiteGroupLevels {
    struct Level: Equatable {
        var version: Int
        var compatibleFrom: Int
    }

    /// The file's level: 1 when it has only GRDB's first migration (or nothing yet).
    static func installed(_ db: Database) throws -> Level {
        guard try db.tableExists("schema_level") else { return Level(version: 1, compatibleFrom: 1) }
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT version, compatible_from FROM schema_level ORDER BY version DESC LIMIT 1")
        else { return Level(version: 1, compatibleFrom: 1) }
        return Level(
            version: try row.checked("version", in: "schema_level"),
            compatibleFrom: try row.checked("compatible_from", in: "schema_level"))
    }

    /// Applies the levels above the file's, up to `latest`.
    static func apply(_ db: Database, upTo latest: Int) throws {
        let current = try installed(db).version
        for level in levels where level.version > current && level.version <= latest {
            try db.execute(sql: level.sql)
            try db.execute(
                sql: "INSERT INTO schema_level (version, compatible_from, summary) VALUES (?, ?, ?)",
                arguments: [level.version, level.compatibleFrom, level.summary])
        }
    }

    struct Definition {
        let version: Int
        let compatibleFrom: Int
        let summary: String
        let sql: String
    }

    static let levels: [Definition] = [
        Definition(
            version: 2, compatibleFrom: 1,
            summary: "group challenges, coins, the weekly settlement",
            sql: """
                CREATE TABLE schema_level (
                    version INTEGER PRIMARY KEY NOT NULL,
                    compatible_from INTEGER NOT NULL,
                    summary TEXT NOT NULL
                );

                -- A group's settlement rules; `settle_from` is the first day settled (NULL: the
                -- day the group was created). Groups older than the settlement begin on the day
                -- it came.
                ALTER TABLE group_info ADD COLUMN week_start INTEGER NOT NULL DEFAULT 1
                    CHECK (week_start BETWEEN 1 AND 7);
                ALTER TABLE group_info ADD COLUMN kept_day_coins INTEGER NOT NULL DEFAULT 5
                    CHECK (kept_day_coins BETWEEN 0 AND 1000);
                ALTER TABLE group_info ADD COLUMN over_day_coins INTEGER NOT NULL DEFAULT 10
                    CHECK (over_day_coins BETWEEN 0 AND 1000);
                ALTER TABLE group_info ADD COLUMN missing_days TEXT NOT NULL DEFAULT 'pending'
                    CHECK (missing_days IN ('pending', 'worst-case'));
                ALTER TABLE group_info ADD COLUMN settle_from INTEGER;
                UPDATE group_info SET settle_from = CAST(strftime('%s', 'now') AS INTEGER) / 86400;

                CREATE TABLE group_challenge (
                    code TEXT NOT NULL REFERENCES group_info(code),
                    id TEXT NOT NULL,
                    creator_id TEXT NOT NULL,
                    rule TEXT NOT NULL,
                    first_day INTEGER NOT NULL,
                    days INTEGER NOT NULL CHECK (days BETWEEN 1 AND 365),
                    reward INTEGER NOT NULL CHECK (reward BETWEEN 0 AND 10000),
                    penalty INTEGER NOT NULL CHECK (penalty BETWEEN 0 AND 10000),
                    starts_at INTEGER,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (code, id)
                ) WITHOUT ROWID;

                -- A participant's state and counts only: their home decides them from their own
                -- blocks.
                CREATE TABLE challenge_participant (
                    code TEXT NOT NULL,
                    challenge_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('in', 'finished', 'failed', 'forfeited')),
                    days_kept INTEGER NOT NULL CHECK (days_kept BETWEEN 0 AND 365),
                    joined_at INTEGER NOT NULL,
                    decided_at INTEGER,
                    PRIMARY KEY (code, challenge_id, user_id),
                    FOREIGN KEY (code, challenge_id) REFERENCES group_challenge(code, id) ON DELETE CASCADE,
                    FOREIGN KEY (code, user_id) REFERENCES member(code, user_id) ON DELETE CASCADE
                ) WITHOUT ROWID;

                -- Each user's coins and badges, whatever their groups.
                CREATE TABLE coin_standing (
                    user_id TEXT PRIMARY KEY NOT NULL,
                    display_name TEXT NOT NULL,
                    coins INTEGER NOT NULL CHECK (coins >= 0),
                    badges INTEGER NOT NULL CHECK (badges >= 0),
                    is_public INTEGER NOT NULL,
                    version INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                ) WITHOUT ROWID;

                -- One member's week: pending (days missing, waiting for them) or settled (final).
                CREATE TABLE week_result (
                    code TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    week INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('pending', 'settled')),
                    kept_days INTEGER NOT NULL CHECK (kept_days BETWEEN 0 AND 7),
                    over_days INTEGER NOT NULL CHECK (over_days BETWEEN 0 AND 7),
                    missing_days INTEGER NOT NULL CHECK (missing_days BETWEEN 0 AND 7),
                    coins INTEGER NOT NULL,
                    rule TEXT NOT NULL CHECK (rule IN ('pending', 'worst-case')),
                    kept_day_coins INTEGER NOT NULL,
                    over_day_coins INTEGER NOT NULL,
                    settled_at INTEGER,
                    PRIMARY KEY (code, user_id, week),
                    FOREIGN KEY (code, user_id) REFERENCES member(code, user_id) ON DELETE CASCADE
                ) WITHOUT ROWID;
                """),
        // Rows carry the change that last wrote them (`SQLiteChangeStamps` stamps them, in the
        // writer's connection): a version that does not stamp would leave its writes unseen by
        // readers that catch up from changes, so it must update first.
        Definition(
            version: 3, compatibleFrom: 3,
            summary: "changes, not snapshots: every row stamped with the change that wrote it",
            sql: """
                ALTER TABLE group_info ADD COLUMN removed_seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE member ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE day_total ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE group_challenge ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE challenge_participant ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE week_result ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX member_by_change ON member(code, seq);
                CREATE INDEX day_total_by_change ON day_total(code, seq);
                CREATE INDEX group_challenge_by_change ON group_challenge(code, seq);
                CREATE INDEX challenge_participant_by_change ON challenge_participant(code, seq);
                CREATE INDEX week_result_by_change ON week_result(code, seq);
                """),
        // Adds only tables: a version at level 3 keeps using the file (it never reads them).
        Definition(
            version: 4, compatibleFrom: 3,
            summary: "challenges open to everyone who uses the file, published by its owner",
            sql: """
                CREATE TABLE open_challenge (
                    id TEXT PRIMARY KEY NOT NULL,
                    published_by TEXT NOT NULL,
                    rule TEXT NOT NULL,
                    first_day INTEGER NOT NULL,
                    days INTEGER NOT NULL CHECK (days BETWEEN 1 AND 365),
                    reward INTEGER NOT NULL CHECK (reward BETWEEN 0 AND 10000),
                    penalty INTEGER NOT NULL CHECK (penalty BETWEEN 0 AND 10000),
                    starts_at INTEGER,
                    published_at INTEGER NOT NULL
                ) WITHOUT ROWID;

                -- A participant's name (as they joined, unique on the board), state and counts.
                CREATE TABLE open_participant (
                    challenge_id TEXT NOT NULL REFERENCES open_challenge(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    display_name TEXT NOT NULL,
                    name_key TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('in', 'finished', 'failed', 'forfeited')),
                    days_kept INTEGER NOT NULL CHECK (days_kept BETWEEN 0 AND 365),
                    joined_at INTEGER NOT NULL,
                    decided_at INTEGER,
                    PRIMARY KEY (challenge_id, user_id),
                    UNIQUE (challenge_id, name_key)
                ) WITHOUT ROWID;
                CREATE INDEX open_participant_by_user ON open_participant(user_id);

                -- The open challenges' change number: every write to them adds one.
                CREATE TABLE open_change (
                    only_row INTEGER PRIMARY KEY NOT NULL CHECK (only_row = 1),
                    change_seq INTEGER NOT NULL
                );
                INSERT INTO open_change (only_row, change_seq) VALUES (1, 0);
                """),
        // Adds only a table: a version at level 4 keeps using the file, and sets the rules of a
        // group at once, as it always did.
        Definition(
            version: 5, compatibleFrom: 3,
            summary: "a change of the settlement rates waits for the weeks that have not begun",
            sql: """
                -- The rates a group's members set for weeks not yet begun anywhere when they did,
                -- from the first day of the first of them (SettlementSchedule); a settlement folds
                -- those its weeks have reached into group_info.
                CREATE TABLE rules_change (
                    code TEXT NOT NULL REFERENCES group_info(code) ON DELETE CASCADE,
                    from_day INTEGER NOT NULL,
                    kept_day_coins INTEGER NOT NULL CHECK (kept_day_coins BETWEEN 0 AND 1000),
                    over_day_coins INTEGER NOT NULL CHECK (over_day_coins BETWEEN 0 AND 1000),
                    missing_days TEXT NOT NULL CHECK (missing_days IN ('pending', 'worst-case')),
                    PRIMARY KEY (code, from_day)
                ) WITHOUT ROWID;
                """),
    ]
}
