-- The group store's second schema on PostgreSQL: group challenges and their participants, coins
-- and badges for the rankings, the weekly settlement; and the compatibility rule, so that
-- clients of the first version keep working with this one (see PostgresSchemaMigrator.swift).
-- Applied once, in one transaction, by the program itself. Statements are separated by a line
-- holding only `;`.

-- == Compatibility ==
-- Each migration records the oldest client schema version that may still use the schema.
ALTER TABLE screenmates.schema_migration ADD COLUMN compatible_from integer NOT NULL DEFAULT 1
;

-- == Tables ==
-- A group's settlement rules. `settle_from` is the first day settled (a day number); NULL means
-- the day the group was created. Groups older than the settlement begin on the day it came.
ALTER TABLE screenmates.group_info
    ADD COLUMN week_start integer NOT NULL DEFAULT 1 CHECK (week_start BETWEEN 1 AND 7),
    ADD COLUMN kept_day_coins bigint NOT NULL DEFAULT 5 CHECK (kept_day_coins BETWEEN 0 AND 1000),
    ADD COLUMN over_day_coins bigint NOT NULL DEFAULT 10 CHECK (over_day_coins BETWEEN 0 AND 1000),
    ADD COLUMN missing_days text COLLATE "C" NOT NULL DEFAULT 'pending'
        CHECK (missing_days IN ('pending', 'worst-case')),
    ADD COLUMN settle_from bigint
;

UPDATE screenmates.group_info SET settle_from = floor(extract(epoch FROM now()) / 86400)::bigint
;

CREATE TABLE screenmates.group_challenge (
    code text COLLATE "C" NOT NULL REFERENCES screenmates.group_info (code),
    id text COLLATE "C" NOT NULL CHECK (id ~ '^[a-z0-9]{4,16}$'),
    creator_id text COLLATE "C" NOT NULL,
    rule text NOT NULL CHECK (char_length(rule) BETWEEN 1 AND 2000),
    first_day bigint NOT NULL CHECK (first_day BETWEEN -719162 AND 2932896),
    days bigint NOT NULL CHECK (days BETWEEN 1 AND 365),
    reward bigint NOT NULL CHECK (reward BETWEEN 0 AND 10000),
    penalty bigint NOT NULL CHECK (penalty BETWEEN 0 AND 10000),
    starts_at bigint,
    created_at bigint NOT NULL,
    PRIMARY KEY (code, id)
)
;

-- A participant's state and counts only: their home decides them from their own blocks.
CREATE TABLE screenmates.challenge_participant (
    code text COLLATE "C" NOT NULL,
    challenge_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    state text COLLATE "C" NOT NULL CHECK (state IN ('in', 'finished', 'failed', 'forfeited')),
    days_kept bigint NOT NULL CHECK (days_kept BETWEEN 0 AND 365),
    joined_at bigint NOT NULL,
    decided_at bigint,
    PRIMARY KEY (code, challenge_id, user_id),
    FOREIGN KEY (code, challenge_id) REFERENCES screenmates.group_challenge (code, id) ON DELETE CASCADE,
    FOREIGN KEY (code, user_id) REFERENCES screenmates.member (code, user_id) ON DELETE CASCADE
)
;

-- Each user's coins and badges (one row per user, whatever their groups).
CREATE TABLE screenmates.coin_standing (
    user_id text COLLATE "C" PRIMARY KEY CHECK (user_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    display_name text NOT NULL
        CHECK (char_length(display_name) BETWEEN 1 AND 80 AND display_name !~ '[[:cntrl:]]'),
    coins bigint NOT NULL CHECK (coins >= 0),
    badges bigint NOT NULL CHECK (badges >= 0),
    is_public boolean NOT NULL,
    version bigint NOT NULL,
    updated_at bigint NOT NULL
)
;

CREATE INDEX coin_standing_public ON screenmates.coin_standing (coins DESC, badges DESC) WHERE is_public
;

-- One member's week: pending (days missing, waiting for them) or settled (final).
CREATE TABLE screenmates.week_result (
    code text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    week bigint NOT NULL,
    status text COLLATE "C" NOT NULL CHECK (status IN ('pending', 'settled')),
    kept_days bigint NOT NULL CHECK (kept_days BETWEEN 0 AND 7),
    over_days bigint NOT NULL CHECK (over_days BETWEEN 0 AND 7),
    missing_days bigint NOT NULL CHECK (missing_days BETWEEN 0 AND 7),
    coins bigint NOT NULL,
    rule text COLLATE "C" NOT NULL CHECK (rule IN ('pending', 'worst-case')),
    kept_day_coins bigint NOT NULL,
    over_day_coins bigint NOT NULL,
    settled_at bigint,
    PRIMARY KEY (code, user_id, week),
    FOREIGN KEY (code, user_id) REFERENCES screenmates.member (code, user_id) ON DELETE CASCADE
)
;

ALTER TABLE screenmates.group_challenge ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.challenge_participant ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.coin_standing ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.week_result ENABLE ROW LEVEL SECURITY
;

REVOKE ALL ON ALL TABLES IN SCHEMA screenmates FROM PUBLIC
;
