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

-- == The old API goes: every function that took a user id on trust ==
DO $$
DECLARE
    v_function regprocedure;
BEGIN
    FOR v_function IN
        SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'screenmates' AND p.proname = ANY (ARRAY[
            'create_group', 'find_group', 'join_group', 'leave_group', 'upsert_profile', 'group_members',
            'upsert_day_totals', 'group_day_totals', 'change_mark', 'group_channel', 'create_group_challenge',
            'join_group_challenge', 'report_participant', 'group_challenges', 'challenge_participants',
            'report_standing', 'member_coins', 'public_ranking', 'settlement_rules', 'set_settlement_rules',
            'settle_weeks', 'week_results', 'code_exists', 'lock_group', 'apply_profile', 'retry_after',
            'record_failed_attempt', 'role_retry_after', 'record_role_failure'])
    LOOP
        EXECUTE 'DROP FUNCTION ' || v_function::text;
    END LOOP;
END $$
;

-- == Internal functions (not granted) ==
-- Whether the caller owns the schema (or is a superuser): the one role trusted with everything,
-- since it can change every table anyway.
CREATE FUNCTION screenmates.caller_owns_store() RETURNS boolean
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT coalesce((SELECT pg_has_role(session_user, n.nspowner, 'MEMBER')
        FROM pg_namespace n WHERE n.nspname = 'screenmates'), false)
$$
;

CREATE FUNCTION screenmates.members_choose_clock() RETURNS boolean
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT coalesce((SELECT p.members_choose_clock FROM screenmates.store_policy p), false)
$$
;

CREATE FUNCTION screenmates.policy() RETURNS screenmates.store_policy
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT p FROM screenmates.store_policy p
$$
;

-- The server's instant in milliseconds.
CREATE FUNCTION screenmates.server_ms() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint
$$
;

-- An instant in milliseconds every client can keep (DisplayName's and GroupStoreRules' bounds).
CREATE FUNCTION screenmates.is_instant(p_ms bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT p_ms IS NOT NULL AND p_ms BETWEEN -3000000000000000 AND 3000000000000000
$$
;

-- The instant a call happens at: the member's when the store lets members choose their clock
-- (and it is one every client keeps: the rate limit subtracts from it), else the server's.
CREATE FUNCTION screenmates.call_ms(p_now bigint) RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() AND screenmates.is_instant(p_now) THEN p_now
        ELSE screenmates.server_ms() END
$$
;

-- The days a member's "today" may be on the server's clock: from UTC−12 with a day starting
-- as late as the morning, to UTC+14. NULL bounds when members choose their clock.
CREATE FUNCTION screenmates.first_possible_today() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() THEN NULL
        ELSE floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint - 2 END
$$
;

CREATE FUNCTION screenmates.last_possible_today() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() THEN NULL
        ELSE floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint + 1 END
$$
;

CREATE FUNCTION screenmates.refuse(p_message text) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'SMVAL', MESSAGE = p_message;
END $$
;

CREATE FUNCTION screenmates.quota(p_message text) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'SMQTA', MESSAGE = p_message;
END $$
;

-- A display name as every client accepts it: 1–20 letters, digits and underscores, in NFC.
-- Returns the key that decides uniqueness in a group (computed here, never taken from a client).
-- The locale's [[:alnum:]] is wider than the clients' letters and digits (DisplayName): it also
-- takes letter numbers (Ⅻ), circled letters (Ⓐ) and combining marks, which are refused here:
-- a name must be its own NFKC form (what compatibility characters are not), a letter number is
-- no letter, and a combining mark only follows a letter (the marks of the common scripts:
-- Latin, Greek, Cyrillic, Hebrew, Arabic, the Indic scripts and Thai; a name in a script whose
-- marks are not listed here is refused, never taken wider than the clients take it).
CREATE FUNCTION screenmates.name_key(p_name text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_marks constant text := '\u0300-\u036F\u0483-\u0489\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670'
        || '\u06D6-\u06ED\u0900-\u0903\u093A-\u094F\u0951-\u0957\u0962\u0963\u0981-\u0983\u09BC-\u09D7'
        || '\u09E2\u09E3\u0A01-\u0A03\u0A3C-\u0A51\u0A70\u0A71\u0A75\u0A81-\u0A83\u0ABC-\u0ACD\u0AE2\u0AE3'
        || '\u0B01-\u0B03\u0B3C-\u0B57\u0B82\u0BBE-\u0BCD\u0BD7\u0C00-\u0C04\u0C3E-\u0C56\u0C81-\u0C83'
        || '\u0CBC-\u0CD6\u0D00-\u0D03\u0D3B-\u0D57\u0E31\u0E34-\u0E3A\u0E47-\u0E4E\u1AB0-\u1AFF'
        || '\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F';
BEGIN
    IF p_name IS NULL OR char_length(p_name) NOT BETWEEN 1 AND 20
        OR p_name !~ ('^[[:alnum:]_][[:alnum:]_' || v_marks || ']*$')
        OR p_name ~ ('^[' || v_marks || ']')
        OR NOT p_name IS NFC NORMALIZED OR NOT p_name IS NFKC NORMALIZED
        OR p_name ~ '[\u2160-\u2188\u3007\u3021-\u3029\u3038-\u303A\u16EE-\u16F0]'
    THEN
        PERFORM screenmates.refuse('A display name is 1–20 letters, digits and underscores.');
    END IF;
    RETURN lower(p_name);
END $$
;

CREATE FUNCTION screenmates.check_version(p_version bigint) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_version IS NULL OR p_version NOT BETWEEN 1 AND 9007199254740992 THEN
        PERFORM screenmates.refuse('A version is 1 to 2^53.');
    END IF;
END $$
;

-- A member's day ("today" for a profile, a day of a challenge): a date every client keeps, and
-- on the server's clock a day that is today somewhere on Earth.
CREATE FUNCTION screenmates.check_today(p_day bigint) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_today bigint;
BEGIN
    IF p_day IS NULL OR p_day NOT BETWEEN -719162 AND 2932896 THEN
        PERFORM screenmates.refuse('A date is in the years 1 to 9999.');
    END IF;
    IF NOT screenmates.members_choose_clock() THEN
        v_today := floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint;
        IF p_day NOT BETWEEN v_today - 2 AND v_today + 1 THEN
            PERFORM screenmates.refuse(
                'That day is not today anywhere by the group store''s clock; check this machine''s clock.');
        END IF;
    END IF;
END $$
;

-- The profile fields a member shares, checked as every client checks them.
CREATE FUNCTION screenmates.check_profile(
    p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint
) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_blocks IS NULL OR p_blocks NOT BETWEEN 0 AND 1440 THEN
        PERFORM screenmates.refuse('A day holds 0 to 1440 blocks.');
    END IF;
    IF p_streak IS NULL OR p_streak NOT BETWEEN 0 AND 36525 THEN
        PERFORM screenmates.refuse('A streak is 0 to 36525 days.');
    END IF;
    IF NOT screenmates.is_instant(p_last_updated) OR (p_last_active IS NOT NULL AND NOT screenmates.is_instant(p_last_active))
    THEN
        PERFORM screenmates.refuse('A member''s last-active and last-updated times must be real instants.');
    END IF;
    PERFORM screenmates.check_version(p_version);
    PERFORM screenmates.check_today(p_day);
END $$
;

-- The keys of a JSON object, sorted; NULL for anything that is not an object.
CREATE FUNCTION screenmates.json_keys(p_value jsonb) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_value IS NULL OR jsonb_typeof(p_value) <> 'object' THEN
        RETURN NULL;
    END IF;
    RETURN ARRAY(SELECT k FROM jsonb_object_keys(p_value) k ORDER BY k);
END $$
;

-- A whole number from 0 to p_max written as JSON, or NULL.
CREATE FUNCTION screenmates.json_count(p_value jsonb, p_max integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_value IS NULL OR jsonb_typeof(p_value) <> 'number' OR p_value::text !~ '^[0-9]{1,6}$'
        OR p_value::text::integer > p_max
    THEN
        RETURN NULL;
    END IF;
    RETURN p_value::text::integer;
END $$
;

-- A challenge's target: every vice app, or one app by an id without control, format or bidi
-- characters.
CREATE FUNCTION screenmates.check_target(p_target jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_app text;
BEGIN
    IF p_target = '{"allVice": {}}'::jsonb THEN
        RETURN true;
    END IF;
    IF screenmates.json_keys(p_target) IS DISTINCT FROM ARRAY['app']
        OR screenmates.json_keys(p_target -> 'app') IS DISTINCT FROM ARRAY['_0']
        OR jsonb_typeof(p_target -> 'app' -> '_0') <> 'string'
    THEN
        RETURN false;
    END IF;
    v_app := p_target -> 'app' ->> '_0';
    RETURN char_length(v_app) BETWEEN 1 AND 64 AND v_app !~ '[[:cntrl:]]'
        AND v_app !~ '[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]';
END $$
;

-- Whether no object in a JSON text names a key twice. jsonb keeps the last of two equal keys
-- and the clients' decoder (Foundation's JSONDecoder) the first, so a text with both would be
-- checked here as one value and read there as another.
CREATE FUNCTION screenmates.json_keys_unique(p_value json) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_item json;
BEGIN
    IF json_typeof(p_value) = 'object' THEN
        IF (SELECT count(*) <> count(DISTINCT k) FROM json_object_keys(p_value) k) THEN
            RETURN false;
        END IF;
        FOR v_item IN SELECT e.value FROM json_each(p_value) e LOOP
            IF NOT screenmates.json_keys_unique(v_item) THEN
                RETURN false;
            END IF;
        END LOOP;
    ELSIF json_typeof(p_value) = 'array' THEN
        FOR v_item IN SELECT e FROM json_array_elements(p_value) e LOOP
            IF NOT screenmates.json_keys_unique(v_item) THEN
                RETURN false;
            END IF;
        END LOOP;
    END IF;
    RETURN true;
END $$
;

-- A challenge's rule as the clients write it (GroupStoreRules.ruleText) and judge it
-- (Challenge.problem): one of three kinds, every number in range.
CREATE FUNCTION screenmates.check_rule(p_rule text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_rule jsonb;
    v_body jsonb;
    v_from integer;
    v_until integer;
    v_ok boolean := false;
BEGIN
    IF p_rule IS NULL OR char_length(p_rule) NOT BETWEEN 1 AND 2000 THEN
        PERFORM screenmates.refuse('A challenge''s rule is missing or too long to share.');
    END IF;
    BEGIN
        v_rule := p_rule::jsonb;
        IF NOT screenmates.json_keys_unique(p_rule::json) THEN
            v_rule := NULL;
        END IF;
    EXCEPTION WHEN others THEN
        PERFORM screenmates.refuse('A challenge''s rule is not one ScreenMates writes.');
    END;
    IF screenmates.json_keys(v_rule) = ARRAY['streak'] THEN
        v_ok := v_rule -> 'streak' = '{}'::jsonb;
    ELSIF screenmates.json_keys(v_rule) = ARRAY['dailyBlocks'] THEN
        v_body := v_rule -> 'dailyBlocks';
        v_ok := screenmates.json_keys(v_body) = ARRAY['max', 'target']
            AND screenmates.json_count(v_body -> 'max', 96) IS NOT NULL
            AND screenmates.check_target(v_body -> 'target');
    ELSIF screenmates.json_keys(v_rule) = ARRAY['quietHours'] THEN
        v_body := v_rule -> 'quietHours';
        IF screenmates.json_keys(v_body) = ARRAY['from', 'target', 'until']
            AND screenmates.json_keys(v_body -> 'from') = ARRAY['minutes']
            AND screenmates.json_keys(v_body -> 'until') = ARRAY['minutes']
        THEN
            v_from := screenmates.json_count(v_body -> 'from' -> 'minutes', 1439);
            v_until := screenmates.json_count(v_body -> 'until' -> 'minutes', 1439);
            v_ok := v_from IS NOT NULL AND v_until IS NOT NULL AND v_from <> v_until
                AND screenmates.check_target(v_body -> 'target');
        END IF;
    END IF;
    IF NOT coalesce(v_ok, false) THEN
        PERFORM screenmates.refuse('A challenge''s rule is not one ScreenMates can judge.');
    END IF;
END $$
;

-- The verified caller: the user id, once its role and secret are checked. A new id is bound to
-- the calling role and the secret's hash; an id from before identities waits for the store's
-- owner (SMCLM), unless the owner is the caller; any other role or secret is refused (SMWHO).
CREATE FUNCTION screenmates.caller(p_user text, p_secret text) RETURNS text
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_hash bytea;
    v_identity screenmates.identity%ROWTYPE;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF p_secret IS NULL OR p_secret !~ '^[0-9a-f]{32,128}$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMKEY',
            MESSAGE = 'A member''s secret is 32 to 128 hexadecimal digits (128 to 512 bits).';
    END IF;
    v_hash := sha256(convert_to(p_secret, 'UTF8'));
    FOR i IN 1..2 LOOP
        SELECT * INTO v_identity FROM screenmates.identity d WHERE d.user_id = p_user;
        IF FOUND THEN
            IF v_identity.role_name <> session_user OR v_identity.secret_hash <> v_hash THEN
                RAISE EXCEPTION USING ERRCODE = 'SMWHO',
                    MESSAGE = 'This user id belongs to another member (another login, or another secret).';
            END IF;
            RETURN p_user;
        END IF;
        IF EXISTS (SELECT 1 FROM screenmates.legacy_user l WHERE l.user_id = p_user) THEN
            IF NOT screenmates.caller_owns_store() THEN
                RAISE EXCEPTION USING ERRCODE = 'SMCLM',
                    MESSAGE = 'This user id is from before members had identities: its claim waits for the store''s owner.';
            END IF;
            DELETE FROM screenmates.legacy_user l WHERE l.user_id = p_user;
        ELSIF NOT screenmates.caller_owns_store() AND (
            SELECT count(*) FROM screenmates.identity d
            WHERE d.role_name = session_user AND d.bound_at > clock_timestamp() - interval '1 day')
            >= (screenmates.policy()).new_members_per_login_per_day
        THEN
            PERFORM screenmates.quota('This login has made as many new members today as the store allows; try again tomorrow.');
        END IF;
        INSERT INTO screenmates.identity (user_id, role_name, secret_hash) VALUES (p_user, session_user, v_hash)
            ON CONFLICT DO NOTHING;
        IF FOUND THEN
            RETURN p_user;
        END IF;
        -- Bound by another call at the same moment: check against that binding.
    END LOOP;
    RAISE EXCEPTION USING ERRCODE = 'SMWHO', MESSAGE = 'This user id belongs to another member.';
END $$
;

-- Seconds until the member may try a code again, or NULL: after 5 wrong codes within 10 minutes
-- (GroupStoreRules) on the clock in use, or 20 within an hour on the server's clock.
CREATE FUNCTION screenmates.retry_after(p_user text, p_now bigint) RETURNS bigint
LANGUAGE plpgsql STABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_recent bigint[];
    v_logged timestamptz[];
    v_count integer;
BEGIN
    SELECT coalesce(array_agg(f.at ORDER BY f.at), '{}') INTO v_recent FROM screenmates.failed_attempt f
        WHERE f.user_id = p_user AND f.at > p_now - 600000 AND f.at <= p_now;
    v_count := cardinality(v_recent);
    IF v_count >= 5 THEN
        RETURN least(greatest(ceil((v_recent[v_count - 4] + 600000 - p_now) / 1000.0), 1), 600)::bigint;
    END IF;
    SELECT coalesce(array_agg(f.logged_at ORDER BY f.logged_at), '{}') INTO v_logged FROM screenmates.failed_attempt f
        WHERE f.user_id = p_user AND f.logged_at > clock_timestamp() - interval '1 hour';
    v_count := cardinality(v_logged);
    IF v_count >= 20 THEN
        RETURN least(greatest(ceil(extract(epoch FROM
            v_logged[v_count - 19] + interval '1 hour' - clock_timestamp())), 1), 3600)::bigint;
    END IF;
    RETURN NULL;
END $$
;

-- Writes a wrong code down; attempts older than a day (anyone's) are purged on the way.
CREATE FUNCTION screenmates.record_failed_attempt(p_user text, p_now bigint) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    DELETE FROM screenmates.failed_attempt f WHERE f.logged_at < clock_timestamp() - interval '1 day';
    INSERT INTO screenmates.failed_attempt (user_id, at) VALUES (p_user, p_now);
END $$
;

-- How a verified member reaches a group by its code: true when they are a member; false when
-- the code names no group (written down as a wrong code, so the caller must answer, not
-- raise); SMNOT when the group exists but they are not in it; SMLIM while they are limited.
CREATE FUNCTION screenmates.group_access(p_user text, p_code text) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_now bigint := screenmates.server_ms();
    v_wait bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user) THEN
        RETURN true;
    END IF;
    v_wait := screenmates.retry_after(p_user, v_now);
    IF v_wait IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SMLIM', MESSAGE = 'Too many wrong group codes.', DETAIL = v_wait::text;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMNOT', MESSAGE = 'Not a member of the group.', DETAIL = p_code;
    END IF;
    PERFORM screenmates.record_failed_attempt(p_user, v_now);
    RETURN false;
END $$
;

-- group_access, then the group's row locked (every writing function takes it first, so they
-- never wait crosswise).
CREATE FUNCTION screenmates.lock_group(p_user text, p_code text) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT screenmates.group_access(p_user, p_code) THEN
        RETURN false;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    RETURN true;
END $$
;

-- Stores the profile in each of `p_codes` where the user is a member with an older version;
-- all or nothing (a name taken in one of them changes none). Returns in how many it was stored.
-- The caller holds the groups' rows locked and checked the values (`p_key` is the name's
-- `name_key`).
CREATE FUNCTION screenmates.apply_profile(
    p_codes text[], p_user text, p_name text, p_key text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint
) RETURNS bigint
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_key text := p_key;
    v_code text;
    v_count bigint := 0;
BEGIN
    IF EXISTS (
        SELECT 1 FROM screenmates.member m
        JOIN screenmates.member o ON o.code = m.code AND o.name_key = v_key AND o.user_id <> p_user
        WHERE m.user_id = p_user AND m.code = ANY (p_codes) AND m.version < p_version
    ) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMNAM', MESSAGE = 'The display name is taken in the group.';
    END IF;
    FOR v_code IN
        UPDATE screenmates.member m SET display_name = p_name, name_key = v_key, blocks_today = p_blocks,
            day = p_day, streak = p_streak, last_active = p_last_active, last_updated = p_last_updated,
            version = p_version
        WHERE m.user_id = p_user AND m.code = ANY (p_codes) AND m.version < p_version
        RETURNING m.code
    LOOP
        PERFORM screenmates.touch(v_code);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END $$
;

-- The user's groups, their rows locked in code order (so two updates never wait on each other
-- crosswise). SMNOT carries the group the user joined last; SMNEW: never in a group here.
CREATE FUNCTION screenmates.lock_my_groups(p_user text) RETURNS text[]
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_codes text[] := '{}';
    v_code text;
    v_last text;
BEGIN
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
    RETURN v_codes;
END $$
;

-- A group whose last member left goes, with everything in it.
CREATE FUNCTION screenmates.drop_if_empty(p_code text) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code) THEN
        DELETE FROM screenmates.group_challenge c WHERE c.code = p_code;
        DELETE FROM screenmates.group_info g WHERE g.code = p_code;
    END IF;
END $$
;

-- == The API (granted to PUBLIC): every function takes the caller's user id and secret first ==
CREATE FUNCTION screenmates.create_group(
    p_user text, p_secret text, p_goal bigint, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint
) RETURNS TABLE (code text, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_key text := screenmates.name_key(p_name);
    v_at bigint := screenmates.call_ms(p_now);
    v_alphabet constant text := '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
    v_bytes bytea;
    v_code text;
BEGIN
    IF p_goal IS NULL OR p_goal NOT BETWEEN 1 AND 96 THEN
        PERFORM screenmates.refuse('A group''s daily goal is 1–96 blocks.');
    END IF;
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    IF (SELECT count(*) FROM screenmates.group_info g
        WHERE g.created_by = v_user AND g.created_on > clock_timestamp() - interval '1 day')
        >= (screenmates.policy()).groups_created_per_day
    THEN
        PERFORM screenmates.quota('You have created as many groups today as the store allows; join one or try again tomorrow.');
    END IF;
    IF (SELECT count(*) FROM screenmates.member m WHERE m.user_id = v_user) >= (screenmates.policy()).groups_per_member THEN
        PERFORM screenmates.quota('You are in as many groups as the store allows; leave one first.');
    END IF;
    -- The code is drawn here, from the server's strong random source: a client cannot choose
    -- one, nor learn from a refused one which codes exist.
    LOOP
        v_bytes := uuid_send(gen_random_uuid());
        v_code := '';
        FOR i IN 0..5 LOOP
            v_code := v_code || substr(v_alphabet, get_byte(v_bytes, i) % 32 + 1, 1);
        END LOOP;
        INSERT INTO screenmates.group_info (code, daily_goal_blocks, created_at, created_by)
            VALUES (v_code, p_goal, v_at, v_user) ON CONFLICT DO NOTHING;
        EXIT WHEN FOUND;
    END LOOP;
    INSERT INTO screenmates.member (
        code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
        version, joined_at)
    VALUES (v_code, v_user, p_name, v_key, p_blocks, p_day, p_streak, p_last_active, p_last_updated,
        p_version, v_at);
    INSERT INTO screenmates.last_group (user_id, code) VALUES (v_user, v_code)
        ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
    RETURN QUERY SELECT v_code, v_at;
END $$
;

-- outcome: 'found' (with the group), 'unknown' (written down as a wrong code) or 'limited' (with
-- the seconds to wait; not written down).
CREATE FUNCTION screenmates.find_group(p_user text, p_secret text, p_code text, p_now bigint)
RETURNS TABLE (outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint,
    created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_wait bigint;
BEGIN
    v_wait := screenmates.retry_after(v_user, v_at);
    IF v_wait IS NOT NULL THEN
        RETURN QUERY SELECT 'limited'::text, v_wait, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
    IF NOT FOUND THEN
        PERFORM screenmates.record_failed_attempt(v_user, v_at);
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
    END IF;
END $$
;

CREATE FUNCTION screenmates.join_group(
    p_user text, p_secret text, p_code text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint
) RETURNS TABLE (outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint,
    created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_key text := screenmates.name_key(p_name);
    v_at bigint := screenmates.call_ms(p_now);
    v_wait bigint;
BEGIN
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    v_wait := screenmates.retry_after(v_user, v_at);
    IF v_wait IS NOT NULL THEN
        RETURN QUERY SELECT 'limited'::text, v_wait, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM screenmates.record_failed_attempt(v_user, v_at);
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user) THEN
        PERFORM screenmates.apply_profile(ARRAY[p_code], v_user, p_name, v_key, p_blocks, p_day, p_streak,
            p_last_active, p_last_updated, p_version);
    ELSE
        IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.name_key = v_key) THEN
            RAISE EXCEPTION USING ERRCODE = 'SMNAM', MESSAGE = 'The display name is taken in the group.';
        END IF;
        IF (SELECT count(*) FROM screenmates.member m WHERE m.code = p_code) >= (screenmates.policy()).members_per_group THEN
            PERFORM screenmates.quota('The group is full: it has as many members as the store allows.');
        END IF;
        IF (SELECT count(*) FROM screenmates.member m WHERE m.user_id = v_user) >= (screenmates.policy()).groups_per_member THEN
            PERFORM screenmates.quota('You are in as many groups as the store allows; leave one first.');
        END IF;
        INSERT INTO screenmates.member (
            code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
            version, joined_at)
        VALUES (p_code, v_user, p_name, v_key, p_blocks, p_day, p_streak, p_last_active,
            p_last_updated, p_version, v_at);
        INSERT INTO screenmates.last_group (user_id, code) VALUES (v_user, p_code)
            ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

-- The member's day totals, challenge parts and week results go with them (ON DELETE CASCADE);
-- a group left empty goes too. Leaving a group one is not in changes nothing; it tells whether
-- the code names a group, so it answers only within the caller's budget of wrong codes, as
-- find_group does.
CREATE FUNCTION screenmates.leave_group(p_user text, p_secret text, p_code text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_wait bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user) THEN
        v_wait := screenmates.retry_after(v_user, screenmates.server_ms());
        IF v_wait IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'SMLIM', MESSAGE = 'Too many wrong group codes.', DETAIL = v_wait::text;
        END IF;
        IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code) THEN
            RETURN true;
        END IF;
        RETURN screenmates.group_access(v_user, p_code);
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    DELETE FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user;
    PERFORM screenmates.touch(p_code);
    PERFORM screenmates.drop_if_empty(p_code);
    RETURN true;
END $$
;

CREATE FUNCTION screenmates.upsert_profile(
    p_user text, p_secret text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_key text := screenmates.name_key(p_name);
BEGIN
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    RETURN screenmates.apply_profile(screenmates.lock_my_groups(v_user), v_user, p_name, v_key, p_blocks, p_day,
        p_streak, p_last_active, p_last_updated, p_version) > 0;
END $$
;

CREATE FUNCTION screenmates.group_members(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, user_id text, display_name text, blocks_today bigint, day bigint,
    streak bigint, last_active bigint, last_updated bigint, version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak, m.last_active,
        m.last_updated, m.version
        FROM screenmates.member m WHERE m.code = p_code ORDER BY m.joined_at, m.user_id;
END $$
;

-- The caller's own totals only, for days from the day they joined (on the server's clock) to a
-- day that is today somewhere; others are left out, as are more than 1000 at once. Of several
-- totals for one day, the highest version (the first of equal ones) is the one offered.
CREATE FUNCTION screenmates.upsert_day_totals(
    p_user text, p_secret text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[],
    p_versions bigint[]
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_first bigint;
    v_last bigint := screenmates.last_possible_today();
    v_count bigint;
BEGIN
    IF greatest(cardinality(p_dates), cardinality(p_vice), cardinality(p_goals), cardinality(p_versions)) > 1000 THEN
        PERFORM screenmates.refuse('At most 1000 day totals are sent at once.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN false;
    END IF;
    IF NOT screenmates.members_choose_clock() THEN
        SELECT screenmates.day_of(m.joined_at) - 2 INTO v_first FROM screenmates.member m
            WHERE m.code = p_code AND m.user_id = v_user;
    END IF;
    INSERT INTO screenmates.day_total (code, user_id, date, vice_blocks, goal_blocks, version)
    SELECT DISTINCT ON (t.date) p_code, v_user, t.date, t.vice, t.goal, t.version
    FROM unnest(p_dates, p_vice, p_goals, p_versions) WITH ORDINALITY AS t(date, vice, goal, version, ord)
    WHERE t.date BETWEEN -719162 AND 2932896 AND t.date >= coalesce(v_first, t.date)
        AND t.date <= coalesce(v_last, t.date)
        AND t.vice BETWEEN 0 AND 1440 AND t.goal BETWEEN 1 AND 96 AND t.version BETWEEN 1 AND 9007199254740992
    ORDER BY t.date, t.version DESC, t.ord
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

CREATE FUNCTION screenmates.group_day_totals(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, date bigint, vice_blocks bigint, goal_blocks bigint,
    version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, d.user_id::text, d.date, d.vice_blocks, d.goal_blocks, d.version
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last ORDER BY d.date, d.user_id;
END $$
;

-- Each member's vice blocks added up over the days, from the rows every client accepts (the
-- bounds of GroupStoreRules, and a sum that never passes 2^53); a row no client would accept
-- comes back as it is (with its date), for the client to leave out and name.
CREATE FUNCTION screenmates.group_block_sums(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint,
    version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY
    WITH rows AS (
        SELECT d.*, (d.user_id ~ '^[A-Za-z0-9_-]{1,64}$' AND d.vice_blocks BETWEEN 0 AND 1440
            AND d.goal_blocks BETWEEN 0 AND 96) AS accepted
        FROM screenmates.day_total d WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last
    )
    SELECT true, r.user_id::text, least(sum(r.vice_blocks), 9007199254740992)::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint
        FROM rows r WHERE r.accepted GROUP BY r.user_id
    UNION ALL
    SELECT true, r.user_id::text, NULL::bigint, r.date, r.vice_blocks, r.goal_blocks, r.version
        FROM rows r WHERE NOT r.accepted;
END $$
;

-- NULL for a code that names no group.
CREATE FUNCTION screenmates.change_mark(p_user text, p_secret text, p_code text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.change_seq FROM screenmates.group_info g WHERE g.code = p_code);
END $$
;

-- The channel the group's changes are notified on; NULL for an unknown code.
CREATE FUNCTION screenmates.group_channel(p_user text, p_secret text, p_code text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.channel FROM screenmates.group_info g WHERE g.code = p_code);
END $$
;

-- outcome: 'created', 'unknown' (code), 'exists' (id taken in the group). The rule is checked as
-- the clients judge it; the store's quotas bound the challenges of a group still running and
-- the new ones a member shares in a day.
CREATE FUNCTION screenmates.create_group_challenge(
    p_user text, p_secret text, p_code text, p_id text, p_rule text, p_first_day bigint, p_days bigint,
    p_reward bigint, p_penalty bigint, p_starts_at bigint, p_now bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
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
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.first_day + c.days > screenmates.day_of(v_at))
        >= (screenmates.policy()).running_challenges_per_group
    THEN
        PERFORM screenmates.quota('The group has as many challenges running as the store allows; let one end first.');
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.creator_id = v_user AND c.created_on > clock_timestamp() - interval '1 day')
        >= (screenmates.policy()).challenges_shared_per_day
    THEN
        PERFORM screenmates.quota('You have shared as many challenges today as the store allows; try again tomorrow.');
    END IF;
    INSERT INTO screenmates.group_challenge (
        code, id, creator_id, rule, first_day, days, reward, penalty, starts_at, created_at)
    VALUES (p_code, p_id, v_user, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at, v_at)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'exists';
    END IF;
    INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
        VALUES (p_code, p_id, v_user, 'in', 0, v_at);
    PERFORM screenmates.touch(p_code);
    RETURN 'created';
END $$
;

-- outcome: 'joined' (with the challenge), 'unknown' (code), 'no-challenge', 'closed' (its first
-- day is over for the member, whose today must be today somewhere by the server's clock).
CREATE FUNCTION screenmates.join_group_challenge(
    p_user text, p_secret text, p_code text, p_id text, p_today bigint, p_now bigint
) RETURNS TABLE (outcome text, creator_id text, rule text, first_day bigint, days bigint, reward bigint,
    penalty bigint, starts_at bigint, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_challenge screenmates.group_challenge%ROWTYPE;
    v_outcome text := 'joined';
BEGIN
    PERFORM screenmates.check_today(p_today);
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        v_outcome := 'unknown';
    ELSE
        SELECT * INTO v_challenge FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id;
        IF NOT FOUND THEN
            v_outcome := 'no-challenge';
        ELSIF NOT EXISTS (
            SELECT 1 FROM screenmates.challenge_participant p
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user
        ) THEN
            IF p_today > v_challenge.first_day THEN
                v_outcome := 'closed';
            ELSE
                INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
                    VALUES (p_code, p_id, v_user, 'in', 0, v_at);
                PERFORM screenmates.touch(p_code);
            END IF;
        END IF;
    END IF;
    RETURN QUERY SELECT v_outcome, v_challenge.creator_id::text, v_challenge.rule, v_challenge.first_day,
        v_challenge.days, v_challenge.reward, v_challenge.penalty, v_challenge.starts_at, v_challenge.created_at;
END $$
;

-- outcome: 'stored', 'unchanged', 'unknown' (code), 'no-challenge', 'not-participant'. A decided
-- state stays as first reported; while still in, the days kept only grow, never past the days
-- the challenge has run (on the server's clock) nor its length; 'finished' only once it is over.
CREATE FUNCTION screenmates.report_participant(
    p_user text, p_secret text, p_code text, p_id text, p_state text, p_days bigint, p_decided_at bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_state text;
    v_days bigint;
    v_challenge screenmates.group_challenge%ROWTYPE;
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
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
    END IF;
    SELECT * INTO v_challenge FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id;
    IF NOT FOUND THEN
        RETURN 'no-challenge';
    END IF;
    SELECT p.state, p.days_kept INTO v_state, v_days FROM screenmates.challenge_participant p
        WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
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
        UPDATE screenmates.challenge_participant p SET days_kept = p_days
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    ELSE
        UPDATE screenmates.challenge_participant p
            SET state = p_state, days_kept = p_days, decided_at = p_decided_at
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    END IF;
    PERFORM screenmates.touch(p_code);
    RETURN 'stored';
END $$
;

CREATE FUNCTION screenmates.group_challenges(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, id text, creator_id text, rule text, first_day bigint, days bigint,
    reward bigint, penalty bigint, starts_at bigint, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
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
CREATE FUNCTION screenmates.challenge_participants(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, challenge_id text, user_id text, display_name text, state text,
    days_kept bigint, joined_at bigint, decided_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
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

-- Stored only with a newer version; moves the change mark of each of the caller's groups.
CREATE FUNCTION screenmates.report_standing(
    p_user text, p_secret text, p_name text, p_coins bigint, p_badges bigint, p_public boolean, p_version bigint,
    p_now bigint
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_codes text[];
    v_code text;
BEGIN
    PERFORM screenmates.name_key(p_name);
    IF p_coins IS NULL OR p_badges IS NULL OR p_coins NOT BETWEEN 0 AND 1000000000 OR p_badges NOT BETWEEN 0 AND 1000 THEN
        PERFORM screenmates.refuse('Coins are 0 to 10^9 and badges 0 to 1000.');
    END IF;
    IF p_public IS NULL OR NOT screenmates.is_instant(p_now) THEN
        PERFORM screenmates.refuse('A standing says whether it is public and when it was made.');
    END IF;
    PERFORM screenmates.check_version(p_version);
    v_codes := screenmates.lock_my_groups(v_user);
    INSERT INTO screenmates.coin_standing AS s (user_id, display_name, coins, badges, is_public, version, updated_at)
        VALUES (v_user, p_name, p_coins, p_badges, p_public, p_version, screenmates.call_ms(p_now))
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

CREATE FUNCTION screenmates.member_coins(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, user_id text, coins bigint, badges bigint, updated_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, s.user_id::text, s.coins, s.badges, s.updated_at
        FROM screenmates.coin_standing s JOIN screenmates.member m ON m.user_id = s.user_id
        WHERE m.code = p_code ORDER BY s.user_id;
END $$
;

-- Everyone who opted in themselves and is in a group: names, coins and badges, never a user id.
-- `my_rank` is the caller's rank when they opted in.
CREATE FUNCTION screenmates.public_ranking(p_user text, p_secret text, p_limit bigint)
RETURNS TABLE (display_name text, coins bigint, badges bigint, is_me boolean, total bigint, my_rank bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY
    WITH ranked AS (
        SELECT s.user_id, s.display_name, s.coins, s.badges,
            rank() OVER (ORDER BY s.coins DESC, s.badges DESC) AS place,
            row_number() OVER (ORDER BY s.coins DESC, s.badges DESC, lower(s.display_name) COLLATE "C",
                s.display_name COLLATE "C", s.user_id) AS position
        FROM screenmates.coin_standing s
        WHERE s.is_public AND EXISTS (SELECT 1 FROM screenmates.member m WHERE m.user_id = s.user_id)
    )
    SELECT r.display_name, r.coins, r.badges, r.user_id = v_user, (SELECT count(*) FROM ranked),
        (SELECT x.place FROM ranked x WHERE x.user_id = v_user)
    FROM ranked r WHERE r.position <= greatest(least(coalesce(p_limit, 1), 1000), 1) ORDER BY r.position;
END $$
;

CREATE FUNCTION screenmates.settlement_rules(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, week_start integer, kept_day_coins bigint, over_day_coins bigint,
    missing_days text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::integer, NULL::bigint, NULL::bigint, NULL::text;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, g.week_start, g.kept_day_coins, g.over_day_coins, g.missing_days::text
        FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

-- outcome: 'set', 'unknown' (code), 'week-fixed' (a week was settled already).
CREATE FUNCTION screenmates.set_settlement_rules(
    p_user text, p_secret text, p_code text, p_week_start integer, p_kept bigint, p_over bigint, p_missing text
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF p_week_start IS NULL OR p_week_start NOT BETWEEN 1 AND 7 OR p_kept IS NULL OR p_kept NOT BETWEEN 0 AND 1000
        OR p_over IS NULL OR p_over NOT BETWEEN 0 AND 1000 OR p_missing IS NULL
        OR p_missing NOT IN ('pending', 'worst-case')
    THEN
        PERFORM screenmates.refuse('Settlement rules: a week start 1–7, 0–1000 coins a day, pending or worst-case.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
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
-- result yet, and every pending week whose missing days have arrived (WeekSettlement.swift keeps
-- the same rules). No week closes before it has ended somewhere on Earth (UTC+14) by the server's
-- clock, whatever day the member claims. `settled` counts the results made final.
CREATE FUNCTION screenmates.settle_weeks(p_user text, p_secret text, p_code text, p_today bigint, p_now bigint)
RETURNS TABLE (known boolean, settled bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
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
    IF p_today IS NULL OR p_today NOT BETWEEN -719162 AND 2932896 THEN
        PERFORM screenmates.refuse('A date is in the years 1 to 9999.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
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
            CASE WHEN c.missing > 0 AND v_group.missing_days = 'pending' THEN NULL ELSE v_at END
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
            settled_at = CASE WHEN c.missing = 0 THEN v_at ELSE NULL END
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

CREATE FUNCTION screenmates.week_results(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, week bigint, status text, kept_days bigint, over_days bigint,
    missing_days bigint, coins bigint, rule text, settled_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
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

-- == An account: what a member gets back on a new machine, and removes when they go ==
-- The caller's groups with their profile as the group holds it (newest group first), and the
-- version of their coins.
CREATE FUNCTION screenmates.my_memberships(p_user text, p_secret text)
RETURNS TABLE (code text, daily_goal_blocks bigint, member_count bigint, created_at bigint, display_name text,
    blocks_today bigint, day bigint, streak bigint, last_active bigint, last_updated bigint, version bigint,
    joined_at bigint, standing_version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT m.code::text, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member x WHERE x.code = m.code), g.created_at, m.display_name,
        m.blocks_today, m.day, m.streak, m.last_active, m.last_updated, m.version, m.joined_at,
        (SELECT s.version FROM screenmates.coin_standing s WHERE s.user_id = v_user)
        FROM screenmates.member m JOIN screenmates.group_info g ON g.code = m.code
        WHERE m.user_id = v_user ORDER BY m.joined_at DESC, m.code;
END $$
;

-- The caller's own day totals in one group, every day the group holds.
CREATE FUNCTION screenmates.my_day_totals(p_user text, p_secret text, p_code text)
RETURNS TABLE (date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT d.date, d.vice_blocks, d.goal_blocks, d.version FROM screenmates.day_total d
        WHERE d.code = p_code AND d.user_id = v_user ORDER BY d.date;
END $$
;

-- Removes every row of the caller's: memberships (with their day totals, challenge parts and
-- week results), coins and ranking entry, failed attempts, the identity itself; groups left
-- empty go. Returns how many groups the caller left.
CREATE FUNCTION screenmates.delete_account(p_user text, p_secret text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_codes text[];
    v_code text;
BEGIN
    SELECT coalesce(array_agg(g.code ORDER BY g.code), '{}') INTO v_codes FROM screenmates.group_info g
        WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = v_user);
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = ANY (v_codes) ORDER BY g.code FOR UPDATE;
    DELETE FROM screenmates.member m WHERE m.user_id = v_user;
    FOREACH v_code IN ARRAY v_codes LOOP
        PERFORM screenmates.touch(v_code);
        PERFORM screenmates.drop_if_empty(v_code);
    END LOOP;
    UPDATE screenmates.group_challenge c SET creator_id = '-' WHERE c.creator_id = v_user;
    UPDATE screenmates.group_info g SET created_by = NULL WHERE g.created_by = v_user;
    DELETE FROM screenmates.coin_standing s WHERE s.user_id = v_user;
    DELETE FROM screenmates.last_group l WHERE l.user_id = v_user;
    DELETE FROM screenmates.failed_attempt f WHERE f.user_id = v_user;
    DELETE FROM screenmates.identity d WHERE d.user_id = v_user;
    RETURN cardinality(v_codes);
END $$
;

-- A user id from before identities asks to be bound to the caller's role and secret: 'waiting'
-- (for the owner: `approve_claim`), 'bound' (the caller owns the store, or it was approved).
CREATE FUNCTION screenmates.claim_identity(p_user text, p_secret text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_hash bytea;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF p_secret IS NULL OR p_secret !~ '^[0-9a-f]{32,128}$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMKEY',
            MESSAGE = 'A member''s secret is 32 to 128 hexadecimal digits (128 to 512 bits).';
    END IF;
    v_hash := sha256(convert_to(p_secret, 'UTF8'));
    IF NOT EXISTS (SELECT 1 FROM screenmates.legacy_user l WHERE l.user_id = p_user) THEN
        PERFORM screenmates.caller(p_user, p_secret);
        RETURN 'bound';
    END IF;
    IF screenmates.caller_owns_store() THEN
        PERFORM screenmates.caller(p_user, p_secret);
        RETURN 'bound';
    END IF;
    IF (SELECT count(*) FROM screenmates.identity_claim c WHERE c.user_id = p_user) >= 20 THEN
        PERFORM screenmates.quota('This user id has 20 claims waiting; the store''s owner must decide first.');
    END IF;
    INSERT INTO screenmates.identity_claim (user_id, role_name, secret_hash) VALUES (p_user, session_user, v_hash)
        ON CONFLICT DO NOTHING;
    RETURN 'waiting';
END $$
;

-- == For the store's owner only (not granted) ==
-- Claims waiting for a decision: the user id, the groups and names it holds, who claims it and
-- when, the claim's fingerprint (the first 4 bytes of its secret's hash, which the claimant is
-- shown too), and how many claims the id has (more than one: ask the members who is who).
CREATE FUNCTION screenmates.pending_claims()
RETURNS TABLE (user_id text, names text, role_name text, fingerprint text, claimed_at timestamptz, claimants bigint)
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT c.user_id::text,
        (SELECT string_agg(m.display_name || ' in ' || m.code, ', ' ORDER BY m.code)
            FROM screenmates.member m WHERE m.user_id = c.user_id),
        c.role_name::text, encode(substr(c.secret_hash, 1, 4), 'hex'), c.claimed_at,
        (SELECT count(*) FROM screenmates.identity_claim x WHERE x.user_id = c.user_id)
    FROM screenmates.identity_claim c ORDER BY c.user_id, c.claimed_at
$$
;

-- Binds the id to the claim `p_role` made, the one with `p_fingerprint` when given; the other
-- claims go. Answers 'approved', 'no-claim', or 'ambiguous' when the role made claims with
-- several secrets and no fingerprint says which (on a shared login, another member's).
CREATE FUNCTION screenmates.approve_claim(p_user text, p_role text, p_fingerprint text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_hashes bytea[];
BEGIN
    SELECT coalesce(array_agg(c.secret_hash), '{}') INTO v_hashes FROM screenmates.identity_claim c
        WHERE c.user_id = p_user AND c.role_name = p_role
            AND (p_fingerprint IS NULL OR encode(substr(c.secret_hash, 1, 4), 'hex') = lower(p_fingerprint));
    IF cardinality(v_hashes) = 0 THEN
        RETURN 'no-claim';
    END IF;
    IF cardinality(v_hashes) > 1 THEN
        RETURN 'ambiguous';
    END IF;
    INSERT INTO screenmates.identity (user_id, role_name, secret_hash) VALUES (p_user, p_role, v_hashes[1]);
    DELETE FROM screenmates.legacy_user l WHERE l.user_id = p_user;
    RETURN 'approved';
END $$
;

-- == Privileges ==
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA screenmates FROM PUBLIC
;

GRANT USAGE ON SCHEMA screenmates TO PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.schema_version, screenmates.schema_level, screenmates.create_group,
    screenmates.find_group, screenmates.join_group, screenmates.leave_group, screenmates.upsert_profile,
    screenmates.group_members, screenmates.upsert_day_totals, screenmates.group_day_totals,
    screenmates.group_block_sums, screenmates.change_mark, screenmates.group_channel,
    screenmates.create_group_challenge, screenmates.join_group_challenge, screenmates.report_participant,
    screenmates.group_challenges, screenmates.challenge_participants, screenmates.report_standing,
    screenmates.member_coins, screenmates.public_ranking, screenmates.settlement_rules,
    screenmates.set_settlement_rules, screenmates.settle_weeks, screenmates.week_results,
    screenmates.my_memberships, screenmates.my_day_totals, screenmates.delete_account,
    screenmates.claim_identity
TO PUBLIC
;
