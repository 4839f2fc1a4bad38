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

-- An instant in milliseconds every client can keep: GroupStoreRules.storableMilliseconds,
-- ±2,999,999,999,999,999. The third schema allowed ±3,000,000,000,000,000 itself, which every
-- client then left out of what it read (a member's row, a line of a board).
CREATE OR REPLACE FUNCTION screenmates.is_instant(p_ms bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT p_ms IS NOT NULL AND p_ms BETWEEN -2999999999999999 AND 2999999999999999
$$
;

-- A challenge as every client checks it (GroupStoreRules.check), as `create_group_challenge` checks
-- a group's: an id, a rule the judge reads, a span, coins, a first day today or within a year.
CREATE FUNCTION screenmates.check_challenge(
    p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint, p_penalty bigint, p_starts_at bigint
) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_id IS NULL OR p_id !~ '^[a-z0-9]{4,16}$' THEN
        PERFORM screenmates.refuse('A challenge id has 4–16 lower-case letters and digits.');
    END IF;
    PERFORM screenmates.check_rule(p_rule);
    IF p_days IS NULL OR p_days NOT BETWEEN 1 AND 365 THEN
        PERFORM screenmates.refuse('A challenge lasts 1 to 365 days.');
    END IF;
    IF p_reward IS NULL OR p_penalty IS NULL OR p_reward NOT BETWEEN 0 AND 10000 OR p_penalty NOT BETWEEN 0 AND 10000 THEN
        PERFORM screenmates.refuse('A reward or penalty is 0 to 10000 coins.');
    END IF;
    IF p_first_day IS NULL OR p_first_day NOT BETWEEN -719162 AND 2932896 - 365
        OR p_first_day < screenmates.first_possible_today() OR p_first_day > screenmates.last_possible_today() + 366
    THEN
        PERFORM screenmates.refuse('A challenge begins today or within a year.');
    END IF;
    IF p_starts_at IS NOT NULL AND NOT screenmates.is_instant(p_starts_at) THEN
        PERFORM screenmates.refuse('A challenge''s start must be a real instant.');
    END IF;
END $$
;

-- outcome: 'published', 'exists' (an open challenge has the id). Only the store's owner may
-- (SMOWN); the challenge is checked as a group's is.
CREATE FUNCTION screenmates.publish_open_challenge(
    p_user text, p_secret text, p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint,
    p_penalty bigint, p_starts_at bigint, p_now bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
BEGIN
    IF NOT screenmates.caller_owns_store() THEN
        RAISE EXCEPTION USING ERRCODE = 'SMOWN',
            MESSAGE = 'Only the group store''s owner may publish a challenge open to all.';
    END IF;
    PERFORM screenmates.check_challenge(p_id, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at);
    LOCK TABLE screenmates.open_challenge IN SHARE ROW EXCLUSIVE MODE;
    IF (SELECT count(*) FROM screenmates.open_challenge c WHERE c.first_day + c.days > screenmates.day_of(v_at))
        >= (screenmates.policy()).open_challenges_running
    THEN
        PERFORM screenmates.quota('The store has as many open challenges running as it allows; let one end first.');
    END IF;
    INSERT INTO screenmates.open_challenge (
        id, published_by, rule, first_day, days, reward, penalty, starts_at, published_at)
    VALUES (p_id, v_user, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at, v_at)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'exists';
    END IF;
    PERFORM nextval('screenmates.open_change_seq');
    RETURN 'published';
END $$
;

-- Every open challenge, newest first. Any verified member may read them.
CREATE FUNCTION screenmates.open_challenges(p_user text, p_secret text)
RETURNS TABLE (id text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint,
    starts_at bigint, published_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT c.id::text, c.rule, c.first_day, c.days, c.reward, c.penalty, c.starts_at, c.published_at
        FROM screenmates.open_challenge c ORDER BY c.published_at DESC, c.id;
END $$
;

-- The boards: names and outcomes, never a user id; `is_me` marks the caller's own lines.
CREATE FUNCTION screenmates.open_participants(p_user text, p_secret text)
RETURNS TABLE (challenge_id text, display_name text, state text, days_kept bigint, joined_at bigint,
    decided_at bigint, is_me boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT p.challenge_id::text, p.display_name, p.state, p.days_kept, p.joined_at, p.decided_at,
        p.user_id = v_user
        FROM screenmates.open_participant p ORDER BY p.challenge_id, p.joined_at, p.name_key;
END $$
;

-- outcome: 'joined' (with the challenge), 'no-challenge', 'closed' (its first day is over for the
-- member, whose today must be today somewhere by the server's clock), 'name-taken' (someone on
-- the board goes by that name). The name is checked as every client checks it; the quota bounds
-- how many a member joins in a day.
CREATE FUNCTION screenmates.join_open_challenge(
    p_user text, p_secret text, p_id text, p_name text, p_today bigint, p_now bigint
) RETURNS TABLE (outcome text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint,
    starts_at bigint, published_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_key text := screenmates.name_key(p_name);
    v_challenge screenmates.open_challenge%ROWTYPE;
    v_outcome text := 'joined';
BEGIN
    PERFORM screenmates.check_today(p_today);
    -- The challenge's row locked: joins to one board take turns, so a name is checked and taken
    -- at once.
    SELECT * INTO v_challenge FROM screenmates.open_challenge c WHERE c.id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        v_outcome := 'no-challenge';
    ELSIF NOT EXISTS (
        SELECT 1 FROM screenmates.open_participant p WHERE p.challenge_id = p_id AND p.user_id = v_user
    ) THEN
        IF p_today > v_challenge.first_day THEN
            v_outcome := 'closed';
        ELSIF EXISTS (
            SELECT 1 FROM screenmates.open_participant p WHERE p.challenge_id = p_id AND p.name_key = v_key
        ) THEN
            v_outcome := 'name-taken';
        ELSE
            IF (SELECT count(*) FROM screenmates.open_participant p
                WHERE p.user_id = v_user AND p.joined_on > clock_timestamp() - interval '1 day')
                >= (screenmates.policy()).open_joins_per_member_per_day
            THEN
                PERFORM screenmates.quota(
                    'You have joined as many open challenges today as the store allows; try again tomorrow.');
            END IF;
            INSERT INTO screenmates.open_participant (
                challenge_id, user_id, display_name, name_key, state, days_kept, joined_at)
            VALUES (p_id, v_user, p_name, v_key, 'in', 0, v_at);
            PERFORM nextval('screenmates.open_change_seq');
        END IF;
    END IF;
    RETURN QUERY SELECT v_outcome, v_challenge.rule, v_challenge.first_day, v_challenge.days, v_challenge.reward,
        v_challenge.penalty, v_challenge.starts_at, v_challenge.published_at;
END $$
;

-- outcome: 'stored', 'unchanged', 'no-challenge', 'not-participant'. The caller's own line only,
-- under the rules of `report_participant`: a decided state stays as first reported; while still
-- in, the days kept only grow, never past the days the challenge has run (on the server's clock)
-- nor its length; 'finished' only once it is over.
CREATE FUNCTION screenmates.report_open_participant(
    p_user text, p_secret text, p_id text, p_state text, p_days bigint, p_decided_at bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_state text;
    v_days bigint;
    v_challenge screenmates.open_challenge%ROWTYPE;
    v_last bigint := screenmates.last_possible_today();
BEGIN
    IF p_state IS NULL OR p_state NOT IN ('in', 'finished', 'failed', 'forfeited') THEN
        PERFORM screenmates.refuse('A participant is in, finished, failed or forfeited.');
    END IF;
    IF p_days IS NULL OR p_days NOT BETWEEN 0 AND 365 THEN
        PERFORM screenmates.refuse('Days kept are 0 to 365.');
    END IF;
    IF p_decided_at IS NOT NULL AND NOT screenmates.is_instant(p_decided_at) THEN
        PERFORM screenmates.refuse('A participant''s decision time must be a real instant.');
    END IF;
    SELECT * INTO v_challenge FROM screenmates.open_challenge c WHERE c.id = p_id;
    IF NOT FOUND THEN
        RETURN 'no-challenge';
    END IF;
    SELECT p.state, p.days_kept INTO v_state, v_days FROM screenmates.open_participant p
        WHERE p.challenge_id = p_id AND p.user_id = v_user FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'not-participant';
    END IF;
    IF p_days > v_challenge.days OR (v_last IS NOT NULL AND p_days > greatest(v_last - v_challenge.first_day + 1, 0)) THEN
        PERFORM screenmates.refuse('More days kept than the challenge has run.');
    END IF;
    IF p_state = 'finished' AND v_last IS NOT NULL AND v_last < v_challenge.first_day + v_challenge.days - 1 THEN
        PERFORM screenmates.refuse('A challenge is finished only once its last day has come.');
    END IF;
    IF v_state <> 'in' OR (p_state = 'in' AND p_days <= v_days) THEN
        RETURN 'unchanged';
    END IF;
    IF p_state = 'in' THEN
        UPDATE screenmates.open_participant p SET days_kept = p_days
            WHERE p.challenge_id = p_id AND p.user_id = v_user;
    ELSE
        UPDATE screenmates.open_participant p SET state = p_state, days_kept = p_days, decided_at = p_decided_at
            WHERE p.challenge_id = p_id AND p.user_id = v_user;
    END IF;
    PERFORM nextval('screenmates.open_change_seq');
    RETURN 'stored';
END $$
;

-- The open challenges' change number, for a watcher to poll.
CREATE FUNCTION screenmates.open_changes_mark(p_user text, p_secret text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_mark bigint;
BEGIN
    SELECT CASE WHEN s.is_called THEN s.last_value ELSE 0 END INTO v_mark FROM screenmates.open_change_seq s;
    RETURN v_mark;
END $$
;

-- A line taken away (an account deleted: its identity's lines go with it) moves the mark too.
CREATE FUNCTION screenmates.stamp_open_removal() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
    PERFORM nextval('screenmates.open_change_seq');
    RETURN NULL;
END $$
;

CREATE TRIGGER open_participant_removed AFTER DELETE ON screenmates.open_participant
    FOR EACH STATEMENT EXECUTE FUNCTION screenmates.stamp_open_removal()
;

REVOKE ALL ON FUNCTION screenmates.stamp_open_removal, screenmates.check_challenge FROM PUBLIC
;

REVOKE ALL ON FUNCTION screenmates.publish_open_challenge, screenmates.open_challenges,
    screenmates.open_participants, screenmates.join_open_challenge, screenmates.report_open_participant,
    screenmates.open_changes_mark
FROM PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.publish_open_challenge, screenmates.open_challenges,
    screenmates.open_participants, screenmates.join_open_challenge, screenmates.report_open_participant,
    screenmates.open_changes_mark
TO PUBLIC
;
