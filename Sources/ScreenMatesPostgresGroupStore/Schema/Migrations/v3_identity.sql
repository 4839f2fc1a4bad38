-- The group store's third schema on PostgreSQL: every call is made by a verified member, and the
-- server refuses what a client would refuse (see PostgresGroupSchema.swift for the rules).
-- Applied once, in one transaction, by the program itself. Statements are separated by a line
-- holding only `;`.
--
-- An identity is a user id bound, when it is first used, to the login role that used it
-- (`session_user`) and to the SHA-256 of a secret of at least 128 bits made on the member's
-- machine. Every function takes the id and the secret and refuses both another role and another
-- secret: members with a login role each are told apart by the role, members sharing one role by
-- the secret. The functions of the first two migrations took a user id on trust; they are
-- dropped, and clients from before this migration are told to update (compatible_from = 3).

-- == Identities ==
CREATE TABLE screenmates.identity (
    user_id text COLLATE "C" PRIMARY KEY CHECK (user_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    role_name text COLLATE "C" NOT NULL,
    secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
    bound_at timestamptz NOT NULL DEFAULT clock_timestamp()
)
;

CREATE INDEX identity_by_role ON screenmates.identity (role_name, bound_at)
;

-- User ids that hold rows from before identities: nobody can tell which role wrote them, so
-- none is bound to the first caller that names it. A claim waits for the store's owner.
CREATE TABLE screenmates.legacy_user (user_id text COLLATE "C" PRIMARY KEY)
;

INSERT INTO screenmates.legacy_user (user_id)
    SELECT user_id FROM screenmates.member
    UNION SELECT user_id FROM screenmates.coin_standing
    UNION SELECT user_id FROM screenmates.last_group
    ON CONFLICT DO NOTHING
;

CREATE TABLE screenmates.identity_claim (
    user_id text COLLATE "C" NOT NULL REFERENCES screenmates.legacy_user (user_id) ON DELETE CASCADE,
    role_name text COLLATE "C" NOT NULL,
    secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
    claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (user_id, role_name, secret_hash)
)
;

-- What the store's owner decides for every member. `members_choose_clock`: whether the instants
-- and days a member sends are taken as they are (a store for demos and tests, whose clocks run
-- ahead or start in the past) or held to the server's clock (the default). The quotas bound
-- what one member, one login or one group can make the server keep.
CREATE TABLE screenmates.store_policy (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    members_choose_clock boolean NOT NULL DEFAULT false,
    members_per_group integer NOT NULL DEFAULT 10000 CHECK (members_per_group >= 1),
    groups_per_member integer NOT NULL DEFAULT 10 CHECK (groups_per_member >= 1),
    groups_created_per_day integer NOT NULL DEFAULT 10 CHECK (groups_created_per_day >= 1),
    running_challenges_per_group integer NOT NULL DEFAULT 50 CHECK (running_challenges_per_group >= 1),
    challenges_shared_per_day integer NOT NULL DEFAULT 10 CHECK (challenges_shared_per_day >= 1),
    new_members_per_login_per_day integer NOT NULL DEFAULT 200 CHECK (new_members_per_login_per_day >= 1)
)
;

INSERT INTO screenmates.store_policy DEFAULT VALUES
;

-- Wrong codes now count per verified identity; the per-role count went (members sharing a role
-- spent one budget, so one of them could lock out all). `logged_at` is the server's clock.
DROP TABLE screenmates.failed_attempt_by_role
;

ALTER TABLE screenmates.failed_attempt ADD COLUMN logged_at timestamptz NOT NULL DEFAULT clock_timestamp()
;

CREATE INDEX failed_attempt_by_log ON screenmates.failed_attempt (logged_at)
;

-- Who created a group and when, on the server's clock: the quota of groups per identity.
ALTER TABLE screenmates.group_info
    ADD COLUMN created_by text COLLATE "C",
    ADD COLUMN created_on timestamptz NOT NULL DEFAULT clock_timestamp()
;

CREATE INDEX group_info_by_creator ON screenmates.group_info (created_by, created_on)
;

ALTER TABLE screenmates.group_challenge
    ADD COLUMN created_on timestamptz NOT NULL DEFAULT clock_timestamp()
;

-- The bounds every new row keeps (rows from before are read and checked by the clients).
ALTER TABLE screenmates.member
    ADD CONSTRAINT member_name_length CHECK (char_length(display_name) BETWEEN 1 AND 20) NOT VALID,
    ADD CONSTRAINT member_blocks_range CHECK (blocks_today BETWEEN 0 AND 1440) NOT VALID,
    ADD CONSTRAINT member_streak_range CHECK (streak BETWEEN 0 AND 36525) NOT VALID,
    ADD CONSTRAINT member_version_range CHECK (version BETWEEN 0 AND 9007199254740992) NOT VALID
;

ALTER TABLE screenmates.day_total
    ADD CONSTRAINT day_total_vice_range CHECK (vice_blocks BETWEEN 0 AND 1440) NOT VALID,
    ADD CONSTRAINT day_total_goal_range CHECK (goal_blocks BETWEEN 0 AND 96) NOT VALID,
    ADD CONSTRAINT day_total_version_range CHECK (version BETWEEN 0 AND 9007199254740992) NOT VALID
;

ALTER TABLE screenmates.coin_standing
    ADD CONSTRAINT coin_standing_ranges CHECK (
        coins BETWEEN 0 AND 1000000000 AND badges BETWEEN 0 AND 1000
        AND version BETWEEN 0 AND 9007199254740992 AND char_length(display_name) BETWEEN 1 AND 20) NOT VALID
;

ALTER TABLE screenmates.identity ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.legacy_user ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.identity_claim ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.store_policy ENABLE ROW LEVEL SECURITY
;

REVOKE ALL ON ALL TABLES IN SCHEMA screenmates FROM PUBLIC
;

REVOKE ALL ON ALL SEQUENCES IN SCHEMA screenmates FROM PUBLIC
;

GRANT USAGE ON SCHEMA screenmates TO PUBLIC
;
