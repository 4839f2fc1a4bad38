-- The group store's seventh schema on PostgreSQL: challenges open to everyone who uses the store.
-- Applied once, in one transaction, by the program itself. Statements are separated by a line
-- holding only `;`.
--
-- The store's owner (the role that owns the schema: `caller_owns_store()`) publishes them; every
-- verified member (`caller`) may list them, join one under a name unique on its board, and report
-- their own part, exactly as for a group's challenge: the same rule checks, ranges and days. A
-- board crosses groups, so what it returns is names and outcomes: never a participant's user id.
-- A participant's lines go with their identity (`delete_account` removes it: ON DELETE CASCADE).
-- Adds tables, columns with defaults and functions only: clients of the third schema keep working.

-- How many open challenges may run at once, and how many one member may join in a day.

ALTER TABLE screenmates.store_policy
    ADD COLUMN open_challenges_running integer NOT NULL DEFAULT 100 CHECK (open_challenges_running >= 1),
    ADD COLUMN open_joins_per_member_per_day integer NOT NULL DEFAULT 20 CHECK (open_joins_per_member_per_day >= 1)
;

CREATE TABLE screenmates.open_challenge (
    id text COLLATE "C" PRIMARY KEY CHECK (id ~ '^[a-z0-9]{4,16}$'),
    published_by text COLLATE "C" NOT NULL,
    rule text NOT NULL CHECK (octet_length(rule) <= 2000),
    first_day bigint NOT NULL CHECK (first_day BETWEEN -719162 AND 2932896 - 365),
    days bigint NOT NULL CHECK (days BETWEEN 1 AND 365),
    reward bigint NOT NULL CHECK (reward BETWEEN 0 AND 10000),
    penalty bigint NOT NULL CHECK (penalty BETWEEN 0 AND 10000),
    starts_at bigint,
    published_at bigint NOT NULL,
    published_on timestamptz NOT NULL DEFAULT clock_timestamp()
)
;

CREATE TABLE screenmates.open_participant (
    challenge_id text COLLATE "C" NOT NULL REFERENCES screenmates.open_challenge (id) ON DELETE CASCADE,
    user_id text COLLATE "C" NOT NULL REFERENCES screenmates.identity (user_id) ON DELETE CASCADE,
    display_name text NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 20),
    name_key text NOT NULL,
    state text NOT NULL CHECK (state IN ('in', 'finished', 'failed', 'forfeited')),
    days_kept bigint NOT NULL CHECK (days_kept BETWEEN 0 AND 365),
    joined_at bigint NOT NULL,
    joined_on timestamptz NOT NULL DEFAULT clock_timestamp(),
    decided_at bigint,
    PRIMARY KEY (challenge_id, user_id),
    UNIQUE (challenge_id, name_key)
)
;

CREATE INDEX open_participant_by_user ON screenmates.open_participant (user_id, joined_on)
;

-- The open challenges' change number: a sequence, so writers never wait on one another for it.
CREATE SEQUENCE screenmates.open_change_seq
;

ALTER TABLE screenmates.open_challenge ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.open_participant ENABLE ROW LEVEL SECURITY
;

REVOKE ALL ON screenmates.open_challenge, screenmates.open_participant FROM PUBLIC
;

REVOKE ALL ON SEQUENCE screenmates.open_change_seq FROM PUBLIC
;
