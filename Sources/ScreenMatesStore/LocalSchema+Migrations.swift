import GRDB

// The SQL of the local schema's migrations, v1 to v8 (v9 is in LocalSchema+GroupGames.swift). A
// released migration's SQL never changes: a database records the migrations it ran by name.
extension LocalSchema {
    /// v1: usage events (append-only), the profile, the tracked apps, the finished days, the published clock.
    static let v1EventsProfileAppsHistory = """
        CREATE TABLE usage_event (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL,
            category TEXT NOT NULL CHECK (category IN ('vice', 'productive')),
            seconds INTEGER NOT NULL CHECK (seconds > 0),
            occurred_at INTEGER NOT NULL,
            recorded_at INTEGER NOT NULL
        );
        CREATE INDEX usage_event_by_time ON usage_event(occurred_at);

        CREATE TABLE profile (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            user_id TEXT NOT NULL,
            display_name TEXT,
            day_start_hour INTEGER NOT NULL DEFAULT 0 CHECK (day_start_hour BETWEEN 0 AND 23),
            block_minutes INTEGER NOT NULL DEFAULT 15 CHECK (block_minutes BETWEEN 1 AND 240),
            exchange_rate REAL NOT NULL DEFAULT 1.0 CHECK (exchange_rate BETWEEN 0 AND 10),
            daily_goal_blocks INTEGER NOT NULL DEFAULT 8 CHECK (daily_goal_blocks BETWEEN 1 AND 96),
            notifications_enabled INTEGER NOT NULL DEFAULT 1,
            tracking_start TEXT NOT NULL,
            last_reset TEXT,
            created_at INTEGER NOT NULL
        );

        CREATE TABLE tracked_app (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            bundle_id TEXT NOT NULL,
            category TEXT NOT NULL CHECK (category IN ('vice', 'productive')),
            hidden INTEGER NOT NULL DEFAULT 0,
            position INTEGER NOT NULL
        );

        CREATE TABLE day_history (
            date TEXT PRIMARY KEY,
            vice_blocks INTEGER NOT NULL,
            productive_blocks INTEGER NOT NULL,
            goal_blocks INTEGER NOT NULL,
            earned_seconds INTEGER NOT NULL,
            spent_seconds INTEGER NOT NULL,
            ending_balance_seconds INTEGER NOT NULL,
            overdraft_seconds INTEGER NOT NULL,
            streak_after INTEGER NOT NULL,
            synced INTEGER NOT NULL DEFAULT 0,
            archived_at INTEGER NOT NULL
        );

        CREATE TABLE published_clock (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            origin_ms INTEGER NOT NULL,
            real_anchor_ms INTEGER NOT NULL,
            speed REAL NOT NULL CHECK (speed > 0),
            pid INTEGER NOT NULL,
            published_at INTEGER NOT NULL
        );
        """

    /// v2: the instant of the last reset, the bounds of each finished day, the events the history has taken in, and
    /// which process published the clock.
    static let v2ResetInstantsAndDayBounds = """
        ALTER TABLE profile ADD COLUMN last_reset_at INTEGER;
        ALTER TABLE profile ADD COLUMN history_seq INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE day_history ADD COLUMN start_at INTEGER;
        ALTER TABLE day_history ADD COLUMN end_at INTEGER;
        ALTER TABLE published_clock ADD COLUMN pid_start TEXT;
        UPDATE profile SET history_seq = (SELECT coalesce(max(seq), 0) FROM usage_event);
        """

    /// v3: the group the user is in, the version of what they sent it, the group as last fetched, and what is still to
    /// send.
    static let v3GroupMembership = """
        ALTER TABLE profile ADD COLUMN group_code TEXT;
        ALTER TABLE profile ADD COLUMN group_goal_blocks INTEGER;
        ALTER TABLE profile ADD COLUMN member_version INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE profile ADD COLUMN last_synced_at INTEGER;
        ALTER TABLE profile ADD COLUMN profile_synced_version INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE group_cache (
            code TEXT PRIMARY KEY,
            snapshot TEXT NOT NULL,
            fetched_at INTEGER NOT NULL
        );
        """

    /// v4: the colour theme, and whether notices ring the bell and go to the desktop.
    static let v4ThemeAndNotificationChannels = """
        ALTER TABLE profile ADD COLUMN theme TEXT NOT NULL DEFAULT 'terminal';
        ALTER TABLE profile ADD COLUMN notification_bell INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE profile ADD COLUMN notification_desktop INTEGER NOT NULL DEFAULT 0;
        """

    /// v5: every notice delivered (or counted as sent) once, and whether a dashboard showed it.
    static let v5DeliveredNotices = """
        -- Every notice delivered or counted as sent, once: the key is the claim.
        CREATE TABLE notice (
            key TEXT PRIMARY KEY NOT NULL,
            day INTEGER NOT NULL,
            at INTEGER NOT NULL,
            shown INTEGER NOT NULL CHECK (shown IN (0, 1)),
            -- Whether a dashboard has put it on screen (a notice sent by
            -- `screenmates notify test` waits for the first one to take it).
            toasted INTEGER NOT NULL DEFAULT 0 CHECK (toasted IN (0, 1)),
            notice TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX notice_by_day ON notice(day);
        CREATE INDEX notice_by_time ON notice(at);
        """

    /// v6: the group store a membership was joined through.
    static let v6MembershipStore = "ALTER TABLE profile ADD COLUMN group_store TEXT"

    /// v7: the applications a usage source saw that match no tracked app.
    static let v7SeenApps = """
        -- Active time per day of each application a real usage source saw but could not
        -- place on a tracked app: its reported name only, never a window title.
        CREATE TABLE seen_app (
            day TEXT NOT NULL,
            name TEXT NOT NULL,
            source TEXT NOT NULL,
            seconds INTEGER NOT NULL CHECK (seconds >= 0),
            last_seen_at INTEGER NOT NULL,
            PRIMARY KEY (day, name)
        ) WITHOUT ROWID;
        """

    /// v8: personal challenges, the coin ledger and badges.
    static let v8ChallengesCoinsBadges = """
        -- A personal challenge; `outcome` is written once (kept, broken, forfeited).
        CREATE TABLE challenge (
            id TEXT PRIMARY KEY NOT NULL,
            rule TEXT NOT NULL,
            first_day INTEGER NOT NULL,
            days INTEGER NOT NULL CHECK (days BETWEEN 1 AND 365),
            reward INTEGER NOT NULL CHECK (reward >= 0),
            penalty INTEGER NOT NULL CHECK (penalty >= 0),
            created_at INTEGER NOT NULL,
            starts_at INTEGER,
            outcome TEXT CHECK (outcome IN ('kept', 'broken', 'forfeited')),
            decided_at INTEGER,
            decided_day INTEGER
        ) WITHOUT ROWID;
        -- Append-only: one entry per cause, so a cause replayed books nothing.
        CREATE TABLE coin_transaction (
            cause TEXT PRIMARY KEY NOT NULL,
            asked INTEGER NOT NULL,
            amount INTEGER NOT NULL,
            reason TEXT NOT NULL,
            at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE badge (
            kind TEXT PRIMARY KEY NOT NULL,
            earned_day INTEGER NOT NULL,
            earned_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// What a challenge does when its app comes to the front while its rule forbids it
    /// (`OpenedAction`): a notice for the challenges made from now on unless they say otherwise;
    /// nothing for those made before, which never asked.
    static let v12ChallengeWhenOpened = """
        ALTER TABLE challenge ADD COLUMN when_opened TEXT NOT NULL DEFAULT 'notice'
            CHECK (when_opened IN ('off', 'notice', 'minimize', 'close'));
        UPDATE challenge SET when_opened = 'off';
        """

    /// v14: this home's machine among its member's machines: the id it drew, its name, and the
    /// host it drew them on (a home copied to another host draws again).
    static let v14ThisMachine = """
        CREATE TABLE this_machine (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            machine_id TEXT NOT NULL,
            name TEXT NOT NULL,
            host TEXT NOT NULL,
            drawn_at INTEGER NOT NULL
        );
        """

    /// Whether this home's machine takes over, in a group store, the machine that versions from
    /// before machines wrote as (`first`): a home that had sent to a group before it drew its
    /// machine was that machine. And whether a finished day is this machine's own or was restored
    /// from a group (`screenmates restore`: the member's sum over all their machines), which is
    /// never sent as this machine's.
    static let v15Machines = """
        ALTER TABLE this_machine ADD COLUMN adopts_first INTEGER NOT NULL DEFAULT 0;
        UPDATE this_machine SET adopts_first = (
            (SELECT coalesce(max(profile_synced_version), 0) > 0 FROM profile)
            OR EXISTS (SELECT 1 FROM day_history WHERE synced = 1));
        ALTER TABLE day_history ADD COLUMN origin TEXT NOT NULL DEFAULT 'own' CHECK (origin IN ('own', 'restored'));
        """

    /// v16: what the member's other machines used, by machine and day, as the group store last
    /// said (the member's own machines' rows, which only the member reads), and a number that
    /// moves whenever it changes, so a reader of the figures knows to count them in again. And the
    /// machines this home was before it drew its present one (`devices add` after a removal, a
    /// home copied to another host), with the day it left each: their days up to it are this
    /// home's own, already in its history. A day a version before v15 restored from a group reads
    /// as this home's own; it is the one kind of day with vice blocks and no time spent (every
    /// event lasts a second or more), and is marked restored: the member's sum already.
    static let v16OtherMachineDays = """
        CREATE TABLE other_machine_day (
            machine_id TEXT NOT NULL,
            date TEXT NOT NULL,
            vice_blocks INTEGER NOT NULL CHECK (vice_blocks BETWEEN 0 AND 1440),
            goal_blocks INTEGER NOT NULL CHECK (goal_blocks BETWEEN 0 AND 96),
            productive_blocks INTEGER NOT NULL DEFAULT 0 CHECK (productive_blocks BETWEEN 0 AND 1440),
            PRIMARY KEY (machine_id, date)
        );
        ALTER TABLE profile ADD COLUMN other_machines_version INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE former_machine (
            machine_id TEXT PRIMARY KEY,
            until_day TEXT NOT NULL
        );
        UPDATE day_history SET origin = 'restored'
        WHERE origin = 'own' AND synced = 1 AND vice_blocks > 0 AND spent_seconds = 0;
        """
}
