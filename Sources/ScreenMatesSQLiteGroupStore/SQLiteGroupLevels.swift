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
        // One person, several machines: each machine's days and today kept apart, `day_total` and
        // `member.blocks_today` the member's sums, written by this level's writes only. Compatible
        // from 6 only: a version before it would write a machine's blocks as the member's. A
        // program of level 5 still running with the file open is stopped at its first day total:
        // `day_total` gains a column it does not fill, with no default (NOT NULL is checked before
        // the conflict), so its days stay unsynced and it is told to update when it opens the
        // file again.
        Definition(
            version: 6, compatibleFrom: 6,
            summary: "one person, several machines: each machine's days kept, every reader given the sum",
            sql: """
                -- A member's machines, whatever their groups, with what each last said of today
                -- (its own blocks). `first` is the machine versions from before machines wrote as.
                CREATE TABLE machine (
                    user_id TEXT NOT NULL,
                    machine_id TEXT NOT NULL
                        CHECK (machine_id = 'first' OR (length(machine_id) = 32 AND machine_id NOT GLOB '*[^0-9a-f]*')),
                    name TEXT NOT NULL
                        CHECK (length(name) BETWEEN 1 AND 32 AND name NOT GLOB '*[^A-Za-z0-9._-]*'),
                    added_at INTEGER NOT NULL,
                    last_seen INTEGER NOT NULL,
                    retired_at INTEGER,
                    adopted_first INTEGER NOT NULL DEFAULT 0 CHECK (adopted_first IN (0, 1)),
                    blocks_today INTEGER NOT NULL DEFAULT 0 CHECK (blocks_today BETWEEN 0 AND 1440),
                    productive_today INTEGER CHECK (productive_today BETWEEN 0 AND 1440),
                    day INTEGER CHECK (day BETWEEN -719162 AND 2932896),
                    streak INTEGER CHECK (streak BETWEEN 0 AND 36525),
                    version INTEGER NOT NULL DEFAULT 0 CHECK (version BETWEEN 0 AND 9007199254740992),
                    sent_name TEXT,
                    PRIMARY KEY (user_id, machine_id)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX machine_live_name ON machine (user_id, lower(name)) WHERE retired_at IS NULL;

                -- Each machine's own day totals; `day_total` holds their sum per member and date.
                CREATE TABLE machine_day_total (
                    code TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    date INTEGER NOT NULL CHECK (date BETWEEN -719162 AND 2932896),
                    machine_id TEXT NOT NULL,
                    vice_blocks INTEGER NOT NULL CHECK (vice_blocks BETWEEN 0 AND 1440),
                    productive_blocks INTEGER CHECK (productive_blocks BETWEEN 0 AND 1440),
                    goal_blocks INTEGER NOT NULL CHECK (goal_blocks BETWEEN 0 AND 96),
                    version INTEGER NOT NULL CHECK (version BETWEEN 0 AND 9007199254740992),
                    PRIMARY KEY (code, user_id, date, machine_id),
                    FOREIGN KEY (code, user_id) REFERENCES member (code, user_id) ON DELETE CASCADE,
                    FOREIGN KEY (user_id, machine_id) REFERENCES machine (user_id, machine_id)
                ) WITHOUT ROWID;
                CREATE INDEX machine_day_total_by_machine ON machine_day_total (user_id, machine_id);

                -- Every member's first machine, with the profile of their newest plainly right row.
                INSERT INTO machine (user_id, machine_id, name, added_at, last_seen, blocks_today, day, streak,
                    version, sent_name)
                SELECT m.user_id, 'first', 'first', m.joined_at, m.last_updated, m.blocks_today, m.day, m.streak,
                    m.version, m.display_name
                FROM member m
                WHERE typeof(m.user_id) = 'text' AND typeof(m.joined_at) = 'integer'
                    AND typeof(m.last_updated) = 'integer' AND typeof(m.blocks_today) = 'integer'
                    AND m.blocks_today BETWEEN 0 AND 1440 AND typeof(m.day) = 'integer'
                    AND m.day BETWEEN -719162 AND 2932896 AND typeof(m.streak) = 'integer'
                    AND m.streak BETWEEN 0 AND 36525 AND typeof(m.version) = 'integer'
                    AND m.version BETWEEN 0 AND 9007199254740992
                    AND NOT EXISTS (
                        SELECT 1 FROM member n
                        WHERE n.user_id = m.user_id AND typeof(n.version) = 'integer'
                            AND n.version BETWEEN 0 AND 9007199254740992 AND typeof(n.blocks_today) = 'integer'
                            AND n.blocks_today BETWEEN 0 AND 1440 AND typeof(n.day) = 'integer'
                            AND n.day BETWEEN -719162 AND 2932896 AND typeof(n.streak) = 'integer'
                            AND n.streak BETWEEN 0 AND 36525 AND typeof(n.joined_at) = 'integer'
                            AND typeof(n.last_updated) = 'integer'
                            AND (n.version > m.version OR (n.version = m.version AND n.code < m.code)));
                INSERT INTO machine_day_total (code, user_id, date, machine_id, vice_blocks, goal_blocks, version)
                SELECT d.code, d.user_id, d.date, 'first', d.vice_blocks, d.goal_blocks, d.version
                FROM day_total d
                WHERE typeof(d.date) = 'integer' AND d.date BETWEEN -719162 AND 2932896
                    AND typeof(d.vice_blocks) = 'integer' AND d.vice_blocks BETWEEN 0 AND 1440
                    AND typeof(d.goal_blocks) = 'integer' AND d.goal_blocks BETWEEN 0 AND 96
                    AND typeof(d.version) = 'integer' AND d.version BETWEEN 0 AND 9007199254740992
                    AND EXISTS (SELECT 1 FROM machine c WHERE c.user_id = d.user_id AND c.machine_id = 'first')
                    AND EXISTS (SELECT 1 FROM member m WHERE m.code = d.code AND m.user_id = d.user_id);

                -- The member's sums, with how many machines' totals each adds up.
                CREATE TABLE day_total_v6 (
                    code TEXT NOT NULL REFERENCES group_info(code),
                    user_id TEXT NOT NULL,
                    date INTEGER NOT NULL,
                    vice_blocks INTEGER NOT NULL CHECK (vice_blocks >= 0),
                    goal_blocks INTEGER NOT NULL CHECK (goal_blocks >= 0),
                    version INTEGER NOT NULL,
                    seq INTEGER NOT NULL DEFAULT 0,
                    machines INTEGER NOT NULL,
                    PRIMARY KEY (code, user_id, date)
                ) WITHOUT ROWID;
                INSERT INTO day_total_v6 (code, user_id, date, vice_blocks, goal_blocks, version, seq, machines)
                SELECT code, user_id, date, vice_blocks, goal_blocks, version, seq, 1 FROM day_total;
                DROP TABLE day_total;
                ALTER TABLE day_total_v6 RENAME TO day_total;
                CREATE INDEX day_total_by_change ON day_total(code, seq);
                """),
    ]
}
