-- The group store's first schema on PostgreSQL: groups, members, day totals, failed attempts, and
-- the functions that are the only way members reach them (see PostgresGroupSchema.swift for the
-- rules they keep). Applied once, in one transaction, by the program itself.
--
-- Statements are separated by a line holding only `;` (the program splits on it and runs each
-- one; the file also runs as it is in psql). Its functions live in ../Functions, one file each, as they are today.

-- == Tables ==
CREATE TABLE screenmates.group_info (
    code text COLLATE "C" PRIMARY KEY CHECK (code ~ '^[2-9A-HJ-NP-Z]{6}$'),
    daily_goal_blocks bigint NOT NULL CHECK (daily_goal_blocks BETWEEN 1 AND 96),
    created_at bigint NOT NULL,
    change_seq bigint NOT NULL DEFAULT 1,
    channel text COLLATE "C" NOT NULL UNIQUE
        DEFAULT 'screenmates_' || replace(gen_random_uuid()::text, '-', '')
)
;

CREATE TABLE screenmates.member (
    code text COLLATE "C" NOT NULL REFERENCES screenmates.group_info (code),
    user_id text COLLATE "C" NOT NULL CHECK (user_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    display_name text NOT NULL
        CHECK (char_length(display_name) BETWEEN 1 AND 80 AND display_name !~ '[[:cntrl:]]'),
    name_key text COLLATE "C" NOT NULL,
    blocks_today bigint NOT NULL CHECK (blocks_today >= 0),
    day bigint NOT NULL CHECK (day BETWEEN -719162 AND 2932896),
    streak bigint NOT NULL CHECK (streak >= 0),
    last_active bigint,
    last_updated bigint NOT NULL,
    version bigint NOT NULL,
    joined_at bigint NOT NULL,
    PRIMARY KEY (code, user_id),
    UNIQUE (code, name_key)
)
;

CREATE INDEX member_by_user ON screenmates.member (user_id)
;

CREATE TABLE screenmates.day_total (
    code text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    date bigint NOT NULL CHECK (date BETWEEN -719162 AND 2932896),
    vice_blocks bigint NOT NULL CHECK (vice_blocks >= 0),
    goal_blocks bigint NOT NULL CHECK (goal_blocks >= 0),
    version bigint NOT NULL,
    PRIMARY KEY (code, user_id, date),
    FOREIGN KEY (code, user_id) REFERENCES screenmates.member (code, user_id) ON DELETE CASCADE
)
;

-- Wrong codes by user id, on the caller's clock (the rule every store keeps)…
CREATE TABLE screenmates.failed_attempt (user_id text COLLATE "C" NOT NULL, at bigint NOT NULL)
;

CREATE INDEX failed_attempt_by_user ON screenmates.failed_attempt (user_id, at)
;

-- …and by database role, on the server's clock, which no client can bend.
CREATE TABLE screenmates.failed_attempt_by_role (
    role_name text COLLATE "C" NOT NULL,
    at timestamptz NOT NULL
)
;

CREATE INDEX failed_attempt_by_role_at ON screenmates.failed_attempt_by_role (role_name, at)
;

-- The group each user joined last: what "not a member" names after they left.
CREATE TABLE screenmates.last_group (
    user_id text COLLATE "C" PRIMARY KEY,
    code text COLLATE "C" NOT NULL
)
;

ALTER TABLE screenmates.group_info ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.member ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.day_total ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.failed_attempt ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.failed_attempt_by_role ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.last_group ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.schema_migration ENABLE ROW LEVEL SECURITY
;

REVOKE ALL ON ALL TABLES IN SCHEMA screenmates FROM PUBLIC
;

GRANT USAGE ON SCHEMA screenmates TO PUBLIC
;
