-- The group store's second schema on PostgreSQL: group challenges and their participants, coins
-- and badges for the rankings, the weekly settlement; and the compatibility rule, so that
-- clients of the first version keep working with this one (see PostgresSchemaMigrator.swift).
-- Applied once, in one transaction, by the program itself. Statements are separated by a line
-- holding only `;`.

-- == Compatibility ==
-- Each migration records the oldest client schema version that may still use the schema.
ALTER TABLE screenmates.schema_migration ADD COLUMN compatible_from integer NOT NULL DEFAULT 1
;

CREATE FUNCTION screenmates.schema_level() RETURNS TABLE (version integer, compatible_from integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
    SELECT m.version, m.compatible_from FROM screenmates.schema_migration m ORDER BY m.version DESC LIMIT 1
$$
;

-- Clients from before the rule use a schema whose version equals their own and refuse a higher
-- one: to them this answers the oldest version the schema still serves.
CREATE OR REPLACE FUNCTION screenmates.schema_version() RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
    SELECT coalesce(
        (SELECT m.compatible_from FROM screenmates.schema_migration m ORDER BY m.version DESC LIMIT 1), 0)
$$
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

-- == Internal functions (not granted) ==
-- The first day of the week holding day `p_day`, for weeks starting on ISO weekday `p_start`.
CREATE FUNCTION screenmates.week_first_day(p_day bigint, p_start integer) RETURNS bigint
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT p_day - (((((p_day + 3) % 7) + 7) % 7 + 1 - p_start + 7) % 7)
$$
;

-- The day (number) an instant in milliseconds falls on, in UTC.
CREATE FUNCTION screenmates.day_of(p_ms bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT floor(p_ms / 86400000.0)::bigint
$$
;

-- Locks the group's row (every writing function takes it first, so they never wait crosswise);
-- false for a code that names no group (counted, as every code check is).
CREATE FUNCTION screenmates.lock_group(p_code text) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN false;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    RETURN true;
END $$
;

-- == The API (granted to PUBLIC) ==
-- outcome: 'created', 'unknown' (code), 'not-member', 'exists' (id taken in the group).
CREATE FUNCTION screenmates.create_group_challenge(
    p_code text, p_id text, p_user text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint,
    p_penalty bigint, p_starts_at bigint, p_now bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF NOT screenmates.lock_group(p_code) THEN
        RETURN 'unknown';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user) THEN
        RETURN 'not-member';
    END IF;
    INSERT INTO screenmates.group_challenge (
        code, id, creator_id, rule, first_day, days, reward, penalty, starts_at, created_at)
    VALUES (p_code, p_id, p_user, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at, p_now)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'exists';
    END IF;
    INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
        VALUES (p_code, p_id, p_user, 'in', 0, p_now);
    PERFORM screenmates.touch(p_code);
    RETURN 'created';
END $$
;

-- outcome: 'joined' (with the challenge), 'unknown' (code), 'not-member', 'no-challenge',
-- 'closed' (its first day is over for the member).
CREATE FUNCTION screenmates.join_group_challenge(
    p_code text, p_id text, p_user text, p_today bigint, p_now bigint
) RETURNS TABLE (outcome text, creator_id text, rule text, first_day bigint, days bigint, reward bigint,
    penalty bigint, starts_at bigint, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_challenge screenmates.group_challenge%ROWTYPE;
    v_outcome text := 'joined';
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF NOT screenmates.lock_group(p_code) THEN
        v_outcome := 'unknown';
    ELSIF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user) THEN
        v_outcome := 'not-member';
    ELSE
        SELECT * INTO v_challenge FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id;
        IF NOT FOUND THEN
            v_outcome := 'no-challenge';
        ELSIF NOT EXISTS (
            SELECT 1 FROM screenmates.challenge_participant p
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = p_user
        ) THEN
            IF p_today > v_challenge.first_day THEN
                v_outcome := 'closed';
            ELSE
                INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
                    VALUES (p_code, p_id, p_user, 'in', 0, p_now);
                PERFORM screenmates.touch(p_code);
            END IF;
        END IF;
    END IF;
    RETURN QUERY SELECT v_outcome, v_challenge.creator_id::text, v_challenge.rule, v_challenge.first_day,
        v_challenge.days, v_challenge.reward, v_challenge.penalty, v_challenge.starts_at, v_challenge.created_at;
END $$
;

-- outcome: 'stored', 'unchanged', 'unknown' (code), 'no-challenge', 'not-participant'. A decided
-- state stays as first reported; while still in, the days kept only grow.
CREATE FUNCTION screenmates.report_participant(
    p_code text, p_id text, p_user text, p_state text, p_days bigint, p_decided_at bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_state text;
    v_days bigint;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF p_state IS NULL OR p_state NOT IN ('in', 'finished', 'failed', 'forfeited') THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL', MESSAGE = 'A participant is in, finished, failed or forfeited.';
    END IF;
    IF NOT screenmates.lock_group(p_code) THEN
        RETURN 'unknown';
    END IF;
    SELECT p.state, p.days_kept INTO v_state, v_days FROM screenmates.challenge_participant p
        WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = p_user;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id) THEN
            RETURN 'not-participant';
        END IF;
        RETURN 'no-challenge';
    END IF;
    IF v_state <> 'in' OR (p_state = 'in' AND p_days <= v_days) THEN
        RETURN 'unchanged';
    END IF;
    IF p_state = 'in' THEN
        UPDATE screenmates.challenge_participant p SET days_kept = p_days
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = p_user;
    ELSE
        UPDATE screenmates.challenge_participant p
            SET state = p_state, days_kept = greatest(p_days, 0), decided_at = p_decided_at
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = p_user;
    END IF;
    PERFORM screenmates.touch(p_code);
    RETURN 'stored';
END $$
;

CREATE FUNCTION screenmates.group_challenges(p_code text)
RETURNS TABLE (known boolean, id text, creator_id text, rule text, first_day bigint, days bigint,
    reward bigint, penalty bigint, starts_at bigint, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, c.id::text, c.creator_id::text, c.rule, c.first_day, c.days, c.reward, c.penalty,
        c.starts_at, c.created_at
        FROM screenmates.group_challenge c WHERE c.code = p_code ORDER BY c.created_at DESC, c.id;
END $$
;

-- Participants who are still members, with the names the group knows them by.
CREATE FUNCTION screenmates.challenge_participants(p_code text)
RETURNS TABLE (known boolean, challenge_id text, user_id text, display_name text, state text,
    days_kept bigint, joined_at bigint, decided_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint,
            NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, p.challenge_id::text, p.user_id::text, m.display_name, p.state::text, p.days_kept,
        p.joined_at, p.decided_at
        FROM screenmates.challenge_participant p
        JOIN screenmates.member m ON m.code = p.code AND m.user_id = p.user_id
        WHERE p.code = p_code ORDER BY p.challenge_id, p.joined_at, p.user_id;
END $$
;

-- Stored only with a newer version; moves the change mark of each of the user's groups. SMNOT
-- (with the group joined last) or SMNEW for a user in no group.
CREATE FUNCTION screenmates.report_standing(
    p_user text, p_name text, p_coins bigint, p_badges bigint, p_public boolean, p_version bigint, p_now bigint
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_codes text[] := '{}';
    v_code text;
    v_last text;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    FOR v_code IN
        SELECT g.code FROM screenmates.group_info g
        WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = p_user)
        ORDER BY g.code FOR UPDATE
    LOOP
        v_codes := v_codes || v_code;
    END LOOP;
    IF cardinality(v_codes) = 0 THEN
        SELECT l.code INTO v_last FROM screenmates.last_group l WHERE l.user_id = p_user;
        IF FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'SMNOT', MESSAGE = 'Not a member of the group.', DETAIL = v_last;
        END IF;
        RAISE EXCEPTION USING ERRCODE = 'SMNEW', MESSAGE = 'Not a member of any group.';
    END IF;
    INSERT INTO screenmates.coin_standing AS s (user_id, display_name, coins, badges, is_public, version, updated_at)
        VALUES (p_user, p_name, p_coins, p_badges, p_public, p_version, p_now)
        ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, coins = excluded.coins,
            badges = excluded.badges, is_public = excluded.is_public, version = excluded.version,
            updated_at = excluded.updated_at
        WHERE excluded.version > s.version;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    FOREACH v_code IN ARRAY v_codes LOOP
        PERFORM screenmates.touch(v_code);
    END LOOP;
    RETURN true;
END $$
;

CREATE FUNCTION screenmates.member_coins(p_code text)
RETURNS TABLE (known boolean, user_id text, coins bigint, badges bigint, updated_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, s.user_id::text, s.coins, s.badges, s.updated_at
        FROM screenmates.coin_standing s JOIN screenmates.member m ON m.user_id = s.user_id
        WHERE m.code = p_code ORDER BY s.user_id;
END $$
;

-- Everyone who opted in and is in a group: names, coins and badges, never a user id (one is
-- what a profile update is sent under). `my_rank` is the caller's rank when they opted in.
CREATE FUNCTION screenmates.public_ranking(p_user text, p_limit bigint)
RETURNS TABLE (display_name text, coins bigint, badges bigint, is_me boolean, total bigint, my_rank bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    RETURN QUERY
    WITH ranked AS (
        SELECT s.user_id, s.display_name, s.coins, s.badges,
            rank() OVER (ORDER BY s.coins DESC, s.badges DESC) AS place,
            row_number() OVER (ORDER BY s.coins DESC, s.badges DESC, lower(s.display_name) COLLATE "C",
                s.display_name COLLATE "C", s.user_id) AS position
        FROM screenmates.coin_standing s
        WHERE s.is_public AND EXISTS (SELECT 1 FROM screenmates.member m WHERE m.user_id = s.user_id)
    )
    SELECT r.display_name, r.coins, r.badges, r.user_id = p_user, (SELECT count(*) FROM ranked),
        (SELECT x.place FROM ranked x WHERE x.user_id = p_user)
    FROM ranked r WHERE r.position <= greatest(least(p_limit, 1000), 1) ORDER BY r.position;
END $$
;

CREATE FUNCTION screenmates.settlement_rules(p_code text)
RETURNS TABLE (known boolean, week_start integer, kept_day_coins bigint, over_day_coins bigint,
    missing_days text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN QUERY SELECT false, NULL::integer, NULL::bigint, NULL::bigint, NULL::text;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, g.week_start, g.kept_day_coins, g.over_day_coins, g.missing_days::text
        FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

-- outcome: 'set', 'unknown' (code), 'not-member', 'week-fixed' (a week was settled already).
CREATE FUNCTION screenmates.set_settlement_rules(
    p_code text, p_user text, p_week_start integer, p_kept bigint, p_over bigint, p_missing text
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF NOT screenmates.lock_group(p_code) THEN
        RETURN 'unknown';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user) THEN
        RETURN 'not-member';
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code AND g.week_start <> p_week_start)
        AND EXISTS (SELECT 1 FROM screenmates.week_result r WHERE r.code = p_code)
    THEN
        RETURN 'week-fixed';
    END IF;
    UPDATE screenmates.group_info g SET week_start = p_week_start, kept_day_coins = p_kept,
        over_day_coins = p_over, missing_days = p_missing WHERE g.code = p_code;
    PERFORM screenmates.touch(p_code);
    RETURN 'set';
END $$
;

-- Settles, in one transaction holding the group's row, every member's closed week that has no
-- result yet, and every pending week whose missing days have arrived (WeekSettlement.swift
-- keeps the same rules). No week closes before it has ended somewhere on Earth (UTC+14) by the
-- server's clock, whatever day the client claims. `settled` counts the results made final.
CREATE FUNCTION screenmates.settle_weeks(p_code text, p_today bigint, p_now bigint)
RETURNS TABLE (known boolean, settled bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_group screenmates.group_info%ROWTYPE;
    v_today bigint;
    v_from bigint;
    v_first bigint;
    v_weeks bigint;
    v_new bigint;
    v_new_final bigint;
    v_changed bigint;
    v_changed_final bigint;
BEGIN
    IF NOT screenmates.lock_group(p_code) THEN
        RETURN QUERY SELECT false, 0::bigint;
        RETURN;
    END IF;
    SELECT * INTO v_group FROM screenmates.group_info g WHERE g.code = p_code;
    v_today := least(p_today, floor((extract(epoch FROM clock_timestamp()) + 50400) / 86400)::bigint);
    v_from := coalesce(v_group.settle_from, screenmates.day_of(v_group.created_at));
    v_first := screenmates.week_first_day(v_from, v_group.week_start);
    v_weeks := greatest((screenmates.week_first_day(v_today, v_group.week_start) - v_first) / 7, 0);
    WITH counted AS (
        SELECT w.week, m.user_id, t.kept, t.over, (w.week + 7 - f.first) - t.kept - t.over AS missing
        FROM generate_series(greatest(v_weeks - 520, 0), v_weeks - 1) AS i
        CROSS JOIN LATERAL (SELECT v_first + 7 * i AS week) w
        JOIN screenmates.member m ON m.code = p_code
        CROSS JOIN LATERAL (SELECT greatest(w.week, v_from, screenmates.day_of(m.joined_at)) AS first) f
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE d.vice_blocks <= d.goal_blocks) AS kept,
                count(*) FILTER (WHERE d.vice_blocks > d.goal_blocks) AS over
            FROM screenmates.day_total d
            WHERE d.code = p_code AND d.user_id = m.user_id AND d.date BETWEEN f.first AND w.week + 6
        ) t
        WHERE f.first <= w.week + 6 AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result x
            WHERE x.code = p_code AND x.user_id = m.user_id AND x.week = w.week)
    ), inserted AS (
        INSERT INTO screenmates.week_result (code, user_id, week, status, kept_days, over_days, missing_days, coins,
            rule, kept_day_coins, over_day_coins, settled_at)
        SELECT p_code, c.user_id, c.week,
            CASE WHEN c.missing > 0 AND v_group.missing_days = 'pending' THEN 'pending' ELSE 'settled' END,
            c.kept, c.over, c.missing,
            CASE WHEN c.missing > 0 AND v_group.missing_days = 'pending' THEN 0
                ELSE c.kept * v_group.kept_day_coins - (c.over + c.missing) * v_group.over_day_coins END,
            v_group.missing_days, v_group.kept_day_coins, v_group.over_day_coins,
            CASE WHEN c.missing > 0 AND v_group.missing_days = 'pending' THEN NULL ELSE p_now END
        FROM counted c
        ON CONFLICT DO NOTHING
        RETURNING status
    )
    SELECT count(*), count(*) FILTER (WHERE status = 'settled') INTO v_new, v_new_final FROM inserted;
    WITH recounted AS (
        SELECT r.user_id, r.week, t.kept, t.over, (r.week + 7 - f.first) - t.kept - t.over AS missing
        FROM screenmates.week_result r
        JOIN screenmates.member m ON m.code = r.code AND m.user_id = r.user_id
        CROSS JOIN LATERAL (SELECT greatest(r.week, v_from, screenmates.day_of(m.joined_at)) AS first) f
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE d.vice_blocks <= d.goal_blocks) AS kept,
                count(*) FILTER (WHERE d.vice_blocks > d.goal_blocks) AS over
            FROM screenmates.day_total d
            WHERE d.code = p_code AND d.user_id = r.user_id AND d.date BETWEEN f.first AND r.week + 6
        ) t
        WHERE r.code = p_code AND r.status = 'pending'
    ), updated AS (
        UPDATE screenmates.week_result r SET
            status = CASE WHEN c.missing = 0 THEN 'settled' ELSE 'pending' END,
            kept_days = c.kept, over_days = c.over, missing_days = c.missing,
            coins = CASE WHEN c.missing = 0 THEN c.kept * r.kept_day_coins - c.over * r.over_day_coins ELSE 0 END,
            settled_at = CASE WHEN c.missing = 0 THEN p_now ELSE NULL END
        FROM recounted c
        WHERE r.code = p_code AND r.user_id = c.user_id AND r.week = c.week
            AND (c.missing = 0 OR r.kept_days <> c.kept OR r.over_days <> c.over OR r.missing_days <> c.missing)
        RETURNING r.status
    )
    SELECT count(*), count(*) FILTER (WHERE status = 'settled') INTO v_changed, v_changed_final FROM updated;
    IF v_new + v_changed > 0 THEN
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN QUERY SELECT true, v_new_final + v_changed_final;
END $$
;

CREATE FUNCTION screenmates.week_results(p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, week bigint, status text, kept_days bigint, over_days bigint,
    missing_days bigint, coins bigint, rule text, settled_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::text, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, r.user_id::text, r.week, r.status::text, r.kept_days, r.over_days, r.missing_days,
        r.coins, r.rule::text, r.settled_at
        FROM screenmates.week_result r
        WHERE r.code = p_code AND r.week BETWEEN p_first AND p_last ORDER BY r.week, r.user_id;
END $$
;

-- == Privileges ==
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA screenmates FROM PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.schema_version, screenmates.schema_level, screenmates.create_group,
    screenmates.find_group, screenmates.join_group, screenmates.leave_group, screenmates.upsert_profile,
    screenmates.group_members, screenmates.upsert_day_totals, screenmates.group_day_totals,
    screenmates.change_mark, screenmates.group_channel, screenmates.create_group_challenge,
    screenmates.join_group_challenge, screenmates.report_participant, screenmates.group_challenges,
    screenmates.challenge_participants, screenmates.report_standing, screenmates.member_coins,
    screenmates.public_ranking, screenmates.settlement_rules, screenmates.set_settlement_rules,
    screenmates.settle_weeks, screenmates.week_results
TO PUBLIC
;
