-- The group store's first schema on PostgreSQL: groups, members, day totals, failed attempts, and
-- the functions that are the only way members reach them (see PostgresGroupSchema.swift for the
-- rules they keep). Applied once, in one transaction, by the program itself.
--
-- Statements are separated by a line holding only `;` (the program splits on it and runs each
-- one; the file also runs as it is in psql). Function bodies are plpgsql; `#variable_conflict
-- use_column` keeps a column name that is also an output column meaning the column.

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

-- == Internal functions (not granted) ==
CREATE FUNCTION screenmates.touch(p_code text) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_channel text;
    v_seq bigint;
BEGIN
    UPDATE screenmates.group_info SET change_seq = change_seq + 1 WHERE code = p_code
        RETURNING channel, change_seq INTO v_channel, v_seq;
    IF v_channel IS NOT NULL THEN
        PERFORM pg_notify(v_channel, v_seq::text);
    END IF;
END $$
;

CREATE FUNCTION screenmates.check_user_id(p_user text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_user IS NULL OR p_user !~ '^[A-Za-z0-9_-]{1,64}$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL',
            MESSAGE = 'A user id has 1–64 letters, digits, ''-'' or ''_''.';
    END IF;
END $$
;

-- Seconds until the connected role may use a code again, or NULL: after 60 wrong codes
-- by the role within 10 minutes of the server's clock, whatever user ids it claimed.
CREATE FUNCTION screenmates.role_retry_after() RETURNS bigint
LANGUAGE plpgsql STABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_by_role timestamptz[];
    v_count integer;
BEGIN
    SELECT coalesce(array_agg(r.at ORDER BY r.at), '{}') INTO v_by_role
        FROM screenmates.failed_attempt_by_role r
        WHERE r.role_name = session_user AND r.at > clock_timestamp() - interval '10 minutes';
    v_count := cardinality(v_by_role);
    IF v_count >= 60 THEN
        RETURN least(greatest(ceil(extract(epoch FROM
            v_by_role[v_count - 59] + interval '10 minutes' - clock_timestamp())), 1), 600)::bigint;
    END IF;
    RETURN NULL;
END $$
;

-- Seconds until the caller may try a code again, or NULL: after 5 wrong codes by the
-- user id within 10 minutes (GroupStoreRules), or the role's limit.
CREATE FUNCTION screenmates.retry_after(p_user text, p_now bigint) RETURNS bigint
LANGUAGE plpgsql STABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_recent bigint[];
    v_count integer;
BEGIN
    SELECT coalesce(array_agg(f.at ORDER BY f.at), '{}') INTO v_recent FROM screenmates.failed_attempt f
        WHERE f.user_id = p_user AND f.at > p_now - 600000 AND f.at <= p_now;
    v_count := cardinality(v_recent);
    IF v_count >= 5 THEN
        RETURN least(greatest(ceil((v_recent[v_count - 4] + 600000 - p_now) / 1000.0), 1), 600)::bigint;
    END IF;
    RETURN screenmates.role_retry_after();
END $$
;

CREATE FUNCTION screenmates.record_role_failure() RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    DELETE FROM screenmates.failed_attempt_by_role r
        WHERE r.role_name = session_user AND r.at <= clock_timestamp() - interval '10 minutes';
    INSERT INTO screenmates.failed_attempt_by_role (role_name, at) VALUES (session_user, clock_timestamp());
END $$
;

CREATE FUNCTION screenmates.record_failed_attempt(p_user text, p_now bigint) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    DELETE FROM screenmates.failed_attempt f WHERE f.user_id = p_user AND f.at <= p_now - 600000;
    INSERT INTO screenmates.failed_attempt (user_id, at) VALUES (p_user, p_now);
    PERFORM screenmates.record_role_failure();
END $$
;

-- Whether a code names a group, for every function that takes one: otherwise any of them
-- would tell a guesser which codes exist, around the join's rate limit. A wrong code
-- counts against the role (so the caller must not roll back: they answer, not raise);
-- a role over its limit is refused even a right code (SMLIM, seconds as the detail).
CREATE FUNCTION screenmates.code_exists(p_code text) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_wait bigint;
BEGIN
    v_wait := screenmates.role_retry_after();
    IF v_wait IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SMLIM', MESSAGE = 'Too many wrong group codes.', DETAIL = v_wait::text;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code) THEN
        RETURN true;
    END IF;
    PERFORM screenmates.record_role_failure();
    RETURN false;
END $$
;

-- Stores the profile in each of `p_codes` where the user is a member with an older
-- version; all or nothing (a name taken in one of them changes none). Returns in how
-- many it was stored. The caller holds the groups' rows locked.
CREATE FUNCTION screenmates.apply_profile(
    p_codes text[], p_user text, p_name text, p_name_key text, p_blocks bigint, p_day bigint,
    p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint
) RETURNS bigint
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_code text;
    v_count bigint := 0;
BEGIN
    IF EXISTS (
        SELECT 1 FROM screenmates.member m
        JOIN screenmates.member o ON o.code = m.code AND o.name_key = p_name_key AND o.user_id <> p_user
        WHERE m.user_id = p_user AND m.code = ANY (p_codes) AND m.version < p_version
    ) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMNAM', MESSAGE = 'The display name is taken in the group.';
    END IF;
    FOR v_code IN
        INSERT INTO screenmates.member (
            code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
            version, joined_at)
        SELECT s.code, p_user, p_name, p_name_key, p_blocks, p_day, p_streak, p_last_active,
            p_last_updated, p_version, s.joined_at
        FROM screenmates.member s WHERE s.user_id = p_user AND s.code = ANY (p_codes)
        ON CONFLICT (code, user_id) DO UPDATE SET
            display_name = excluded.display_name, name_key = excluded.name_key,
            blocks_today = excluded.blocks_today, day = excluded.day, streak = excluded.streak,
            last_active = excluded.last_active, last_updated = excluded.last_updated,
            version = excluded.version
        WHERE excluded.version > member.version
        RETURNING member.code
    LOOP
        PERFORM screenmates.touch(v_code);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END $$
;

-- == The API (granted to PUBLIC) ==
CREATE FUNCTION screenmates.schema_version() RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
    SELECT coalesce(max(version), 0) FROM screenmates.schema_migration
$$
;

CREATE FUNCTION screenmates.create_group(
    p_goal bigint, p_user text, p_name text, p_name_key text, p_blocks bigint, p_day bigint,
    p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint
) RETURNS TABLE (code text, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_alphabet constant text := '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
    v_bytes bytea;
    v_code text;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF p_goal IS NULL OR p_goal NOT BETWEEN 1 AND 96 THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL', MESSAGE = 'A group''s daily goal is 1–96 blocks.';
    END IF;
    -- The code is drawn here, from the server's strong random source: a client cannot
    -- choose one, nor learn from a refused one which codes exist.
    LOOP
        v_bytes := uuid_send(gen_random_uuid());
        v_code := '';
        FOR i IN 0..5 LOOP
            v_code := v_code || substr(v_alphabet, get_byte(v_bytes, i) % 32 + 1, 1);
        END LOOP;
        INSERT INTO screenmates.group_info (code, daily_goal_blocks, created_at)
            VALUES (v_code, p_goal, p_now) ON CONFLICT DO NOTHING;
        EXIT WHEN FOUND;
    END LOOP;
    INSERT INTO screenmates.member (
        code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
        version, joined_at)
    VALUES (v_code, p_user, p_name, p_name_key, p_blocks, p_day, p_streak, p_last_active, p_last_updated,
        p_version, p_now);
    INSERT INTO screenmates.last_group (user_id, code) VALUES (p_user, v_code)
        ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
    RETURN QUERY SELECT v_code, p_now;
END $$
;

-- outcome: 'found' (with the group), 'unknown' (written down as a failed attempt) or
-- 'limited' (with the seconds to wait; not written down).
CREATE FUNCTION screenmates.find_group(p_code text, p_user text, p_now bigint)
RETURNS TABLE (outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint,
    created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_wait bigint;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    v_wait := screenmates.retry_after(p_user, p_now);
    IF v_wait IS NOT NULL THEN
        RETURN QUERY SELECT 'limited'::text, v_wait, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
    IF NOT FOUND THEN
        PERFORM screenmates.record_failed_attempt(p_user, p_now);
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
    END IF;
END $$
;

CREATE FUNCTION screenmates.join_group(
    p_code text, p_user text, p_name text, p_name_key text, p_blocks bigint, p_day bigint,
    p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint
) RETURNS TABLE (outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint,
    created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_wait bigint;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    v_wait := screenmates.retry_after(p_user, p_now);
    IF v_wait IS NOT NULL THEN
        RETURN QUERY SELECT 'limited'::text, v_wait, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM screenmates.record_failed_attempt(p_user, p_now);
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user) THEN
        PERFORM screenmates.apply_profile(ARRAY[p_code], p_user, p_name, p_name_key, p_blocks, p_day,
            p_streak, p_last_active, p_last_updated, p_version);
    ELSE
        IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.name_key = p_name_key) THEN
            RAISE EXCEPTION USING ERRCODE = 'SMNAM', MESSAGE = 'The display name is taken in the group.';
        END IF;
        INSERT INTO screenmates.member (
            code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
            version, joined_at)
        VALUES (p_code, p_user, p_name, p_name_key, p_blocks, p_day, p_streak, p_last_active,
            p_last_updated, p_version, p_now);
        INSERT INTO screenmates.last_group (user_id, code) VALUES (p_user, p_code)
            ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

-- The member's day totals go with them (ON DELETE CASCADE).
CREATE FUNCTION screenmates.leave_group(p_code text, p_user text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN false;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    DELETE FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user;
    IF FOUND THEN
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN true;
END $$
;

-- The user's groups are locked in code order, so two updates never wait on each other
-- crosswise. SMNOT carries the group the user joined last as its detail.
CREATE FUNCTION screenmates.upsert_profile(
    p_user text, p_name text, p_name_key text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint
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
    RETURN screenmates.apply_profile(v_codes, p_user, p_name, p_name_key, p_blocks, p_day, p_streak,
        p_last_active, p_last_updated, p_version) > 0;
END $$
;

CREATE FUNCTION screenmates.group_members(p_code text)
RETURNS TABLE (known boolean, user_id text, display_name text, blocks_today bigint, day bigint,
    streak bigint, last_active bigint, last_updated bigint, version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak, m.last_active,
        m.last_updated, m.version
        FROM screenmates.member m WHERE m.code = p_code ORDER BY m.joined_at, m.user_id;
END $$
;

-- Of several totals for one member and day in a batch, the highest version (the first
-- of equal ones) is the one offered: what applying them one by one would keep.
CREATE FUNCTION screenmates.upsert_day_totals(
    p_code text, p_users text[], p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[]
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_count bigint;
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN false;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    INSERT INTO screenmates.day_total (code, user_id, date, vice_blocks, goal_blocks, version)
    SELECT DISTINCT ON (t.user_id, t.date) p_code, t.user_id, t.date, t.vice, t.goal, t.version
    FROM unnest(p_users, p_dates, p_vice, p_goals, p_versions)
        WITH ORDINALITY AS t(user_id, date, vice, goal, version, ord)
    WHERE EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = t.user_id)
    ORDER BY t.user_id, t.date, t.version DESC, t.ord
    ON CONFLICT (code, user_id, date) DO UPDATE SET
        vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks, version = excluded.version
    WHERE excluded.version > day_total.version;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count > 0 THEN
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN true;
END $$
;

CREATE FUNCTION screenmates.group_day_totals(p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, date bigint, vice_blocks bigint, goal_blocks bigint,
    version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, d.user_id::text, d.date, d.vice_blocks, d.goal_blocks, d.version
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last ORDER BY d.date, d.user_id;
END $$
;

-- NULL for a code that names no group.
CREATE FUNCTION screenmates.change_mark(p_code text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.change_seq FROM screenmates.group_info g WHERE g.code = p_code);
END $$
;

-- The channel the group's changes are notified on; NULL for an unknown code.
CREATE FUNCTION screenmates.group_channel(p_code text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT screenmates.code_exists(p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.channel FROM screenmates.group_info g WHERE g.code = p_code);
END $$
;

-- == Privileges ==
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA screenmates FROM PUBLIC
;

GRANT USAGE ON SCHEMA screenmates TO PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.schema_version, screenmates.create_group, screenmates.find_group,
    screenmates.join_group, screenmates.leave_group, screenmates.upsert_profile,
    screenmates.group_members, screenmates.upsert_day_totals, screenmates.group_day_totals,
    screenmates.change_mark, screenmates.group_channel
TO PUBLIC
;
