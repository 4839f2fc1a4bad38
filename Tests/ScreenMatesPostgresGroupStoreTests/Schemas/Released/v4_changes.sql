-- The group store's fourth schema on PostgreSQL: changes, not snapshots. Every row a member can
-- read carries the change number (`seq`) of the write that last changed it, and every group the
-- change number of the last write that took a row away (`removed_seq`: a member who left, with
-- their day totals, challenge parts and week results). A reader that has seen change number N
-- asks for the rows changed after N and merges them into what it has; when a row was taken away
-- after N it reads the group whole again. Applied once, in one transaction, by the program
-- itself. Statements are separated by a line holding only `;`.
--
-- The numbers are stamped by triggers, so every writing function (and the third schema's clients,
-- which keep working: compatible_from stays 3) stamps them alike. A row is stamped with the
-- group's change number plus one, read with the group's row locked: every writer holds that lock
-- until it commits and moves the change number before it does, so the rows a transaction writes
-- carry a number above every change number readable before it committed, and none is missed by a
-- reader that reads the change number first and the rows after.

-- == Columns and indexes ==
ALTER TABLE screenmates.group_info ADD COLUMN removed_seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.member ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.day_total ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.group_challenge ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.challenge_participant ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.week_result ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

CREATE INDEX member_by_change ON screenmates.member (code, seq)
;

CREATE INDEX day_total_by_change ON screenmates.day_total (code, seq)
;

CREATE INDEX group_challenge_by_change ON screenmates.group_challenge (code, seq)
;

CREATE INDEX challenge_participant_by_change ON screenmates.challenge_participant (code, seq)
;

CREATE INDEX week_result_by_change ON screenmates.week_result (code, seq)
;

-- == The stamps (trigger functions, not granted) ==
CREATE FUNCTION screenmates.stamp_change() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    SELECT g.change_seq + 1 INTO NEW.seq FROM screenmates.group_info g WHERE g.code = NEW.code FOR UPDATE;
    NEW.seq := coalesce(NEW.seq, 0);
    RETURN NEW;
END $$
;

CREATE FUNCTION screenmates.stamp_removal() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.group_info g SET removed_seq = g.change_seq + 1
        WHERE g.code = OLD.code AND g.removed_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

-- A member's new name shows on the boards of the challenges they take part in: their parts count
-- as changed with it.
CREATE FUNCTION screenmates.stamp_renamed_parts() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.challenge_participant p SET days_kept = p.days_kept
        WHERE p.code = NEW.code AND p.user_id = NEW.user_id;
    RETURN NULL;
END $$
;

CREATE TRIGGER member_stamp BEFORE INSERT OR UPDATE ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER day_total_stamp BEFORE INSERT OR UPDATE ON screenmates.day_total
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER group_challenge_stamp BEFORE INSERT OR UPDATE ON screenmates.group_challenge
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER challenge_participant_stamp BEFORE INSERT OR UPDATE ON screenmates.challenge_participant
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER week_result_stamp BEFORE INSERT OR UPDATE ON screenmates.week_result
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER member_renamed AFTER UPDATE OF display_name ON screenmates.member
    FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name)
    EXECUTE FUNCTION screenmates.stamp_renamed_parts()
;

CREATE TRIGGER member_removal AFTER DELETE ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

CREATE TRIGGER day_total_removal AFTER DELETE ON screenmates.day_total
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

CREATE TRIGGER group_challenge_removal AFTER DELETE ON screenmates.group_challenge
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

CREATE TRIGGER challenge_participant_removal AFTER DELETE ON screenmates.challenge_participant
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

CREATE TRIGGER week_result_removal AFTER DELETE ON screenmates.week_result
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

-- A new standing (coins, badges) is read by the group with the member's row: the member's rows
-- count as changed with it, in every group they are in (report_standing holds those locked).
CREATE FUNCTION screenmates.stamp_standing() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.member m SET version = m.version WHERE m.user_id = NEW.user_id;
    RETURN NULL;
END $$
;

CREATE TRIGGER coin_standing_stamp AFTER INSERT OR UPDATE ON screenmates.coin_standing
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_standing()
;

-- == Every call ==
-- The caller's identity, as the third schema checks it, with the same answers: the shapes of the
-- user id and the secret are checked by their length and a regular expression without a bounded
-- repetition (PostgreSQL's engine expands `{32,128}` into a machine that takes ten times longer,
-- on every call of every member).
CREATE OR REPLACE FUNCTION screenmates.caller(p_user text, p_secret text) RETURNS text
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_hash bytea;
    v_identity screenmates.identity%ROWTYPE;
BEGIN
    IF p_user IS NULL OR length(p_user) NOT BETWEEN 1 AND 64 OR p_user !~ '^[A-Za-z0-9_-]+$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL',
            MESSAGE = 'A user id has 1–64 letters, digits, ''-'' or ''_''.';
    END IF;
    IF p_secret IS NULL OR length(p_secret) NOT BETWEEN 32 AND 128 OR p_secret !~ '^[0-9a-f]+$' THEN
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

-- == What changed (internal: the caller is checked by the API functions below) ==
-- The group's members whose row changed after `p_after` (all of them when it is NULL).
CREATE FUNCTION screenmates.members_after(p_code text, p_after bigint)
RETURNS TABLE (user_id text, display_name text, blocks_today bigint, day bigint, streak bigint, last_active bigint,
    last_updated bigint, version bigint)
LANGUAGE plpgsql STABLE SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF p_after IS NULL THEN
        RETURN QUERY SELECT m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak, m.last_active,
            m.last_updated, m.version
            FROM screenmates.member m WHERE m.code = p_code ORDER BY m.joined_at, m.user_id;
    ELSE
        RETURN QUERY SELECT m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak, m.last_active,
            m.last_updated, m.version
            FROM screenmates.member m WHERE m.code = p_code AND m.seq > p_after ORDER BY m.joined_at, m.user_id;
    END IF;
END $$
;

-- Each member's vice blocks over the days, from the rows every client accepts (the bounds of
-- GroupStoreRules, a sum that never passes 2^53), as group_block_sums; with `p_after`, only for
-- the members with a total in the days changed after it. A row no client would accept comes back
-- as it is (`blocks` NULL, with its date), for the client to leave out and name.
CREATE FUNCTION screenmates.block_sums_after(p_code text, p_first bigint, p_last bigint, p_after bigint)
RETURNS TABLE (user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
LANGUAGE plpgsql STABLE SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_users text[];
BEGIN
    IF p_after IS NOT NULL THEN
        -- Most looks follow a profile, not a day: the index on (code, seq) answers at once.
        SELECT array_agg(DISTINCT c.user_id) INTO v_users FROM screenmates.day_total c
            WHERE c.code = p_code AND c.seq > p_after AND c.date BETWEEN p_first AND p_last;
        IF v_users IS NULL THEN
            RETURN;
        END IF;
    END IF;
    RETURN QUERY
    WITH rows AS (
        SELECT d.*, (length(d.user_id) BETWEEN 1 AND 64 AND d.user_id ~ '^[A-Za-z0-9_-]+$'
            AND d.vice_blocks BETWEEN 0 AND 1440 AND d.goal_blocks BETWEEN 0 AND 96) AS accepted
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last
            AND (v_users IS NULL OR d.user_id = ANY (v_users))
    )
    SELECT r.user_id::text, least(sum(r.vice_blocks), 9007199254740992)::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint
        FROM rows r WHERE r.accepted GROUP BY r.user_id
    UNION ALL
    SELECT r.user_id::text, NULL::bigint, r.date, r.vice_blocks, r.goal_blocks, r.version
        FROM rows r WHERE NOT r.accepted;
END $$
;

-- == The API's new reads (granted to PUBLIC) ==
-- The group's change number and the change number of the last write that took a row away; no row
-- for a code that names no group.
CREATE FUNCTION screenmates.change_marks(p_user text, p_secret text, p_code text)
RETURNS TABLE (change_seq bigint, removed_seq bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT g.change_seq, g.removed_seq FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

-- What a reader that has seen change number `p_after` needs, in one call: first a 'marks' row (the
-- change number in `blocks`, the last removal in `version`); then, when it can catch up (nothing
-- taken away after `p_after`), a 'member' row for each member whose row changed after it, and the
-- 'week' and 'month' sums (over the days given; none when NULL) of the members whose totals
-- there changed, as block_sums_after gives them. No row for a code that names no group.
CREATE FUNCTION screenmates.group_changes_after(
    p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint,
    p_month_first bigint, p_month_last bigint
) RETURNS TABLE (kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint,
    last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint,
    goal_blocks bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_mark bigint;
    v_removed bigint;
BEGIN
    IF p_after IS NULL THEN
        PERFORM screenmates.refuse('A reader catching up names the change number it has seen.');
    END IF;
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN;
    END IF;
    SELECT g.change_seq, g.removed_seq INTO v_mark, v_removed FROM screenmates.group_info g WHERE g.code = p_code;
    RETURN QUERY SELECT 'marks'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint, v_removed, v_mark, NULL::bigint, NULL::bigint, NULL::bigint;
    IF v_removed > p_after OR p_after > v_mark OR p_after = v_mark THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT 'member'::text, m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak,
        m.last_active, m.last_updated, m.version, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint
        FROM screenmates.member m WHERE m.code = p_code AND m.seq > p_after ORDER BY m.joined_at, m.user_id;
    -- Most changes are a profile: no day total moved, no sums to add up.
    IF NOT EXISTS (SELECT 1 FROM screenmates.day_total d WHERE d.code = p_code AND d.seq > p_after) THEN
        RETURN;
    END IF;
    IF p_week_first IS NOT NULL AND p_week_last IS NOT NULL THEN
        RETURN QUERY SELECT 'week'::text, s.user_id, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, s.version, s.blocks, s.date, s.vice_blocks, s.goal_blocks
            FROM screenmates.block_sums_after(p_code, p_week_first, p_week_last, p_after) s;
    END IF;
    IF p_month_first IS NOT NULL AND p_month_last IS NOT NULL THEN
        RETURN QUERY SELECT 'month'::text, s.user_id, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, s.version, s.blocks, s.date, s.vice_blocks, s.goal_blocks
            FROM screenmates.block_sums_after(p_code, p_month_first, p_month_last, p_after) s;
    END IF;
END $$
;

-- As group_members, only the rows changed after `p_after` (all of them when it is NULL).
CREATE FUNCTION screenmates.group_members_after(p_user text, p_secret text, p_code text, p_after bigint)
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
    RETURN QUERY SELECT true, m.* FROM screenmates.members_after(p_code, p_after) m;
END $$
;

-- As group_block_sums, for the members with a day total in the days changed after `p_after`.
CREATE FUNCTION screenmates.group_block_sums_after(
    p_user text, p_secret text, p_code text, p_first bigint, p_last bigint, p_after bigint
) RETURNS TABLE (known boolean, user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint,
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
    RETURN QUERY SELECT true, s.user_id, s.blocks, s.date, s.vice_blocks, s.goal_blocks, s.version
        FROM screenmates.block_sums_after(p_code, p_first, p_last, p_after) s;
END $$
;

-- As group_challenges, only the challenges that changed after `p_after`, or whose participants did.
CREATE FUNCTION screenmates.group_challenges_after(p_user text, p_secret text, p_code text, p_after bigint)
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
        FROM screenmates.group_challenge c
        WHERE c.code = p_code AND (c.seq > coalesce(p_after, -1) OR c.id IN (
            SELECT p.challenge_id FROM screenmates.challenge_participant p
            WHERE p.code = p_code AND p.seq > coalesce(p_after, -1)))
        ORDER BY c.created_at DESC, c.id;
END $$
;

-- As challenge_participants, every participant of the challenges group_challenges_after returns.
CREATE FUNCTION screenmates.challenge_participants_after(p_user text, p_secret text, p_code text, p_after bigint)
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
    RETURN QUERY
    WITH changed AS (
        SELECT c.id FROM screenmates.group_challenge c WHERE c.code = p_code AND c.seq > coalesce(p_after, -1)
        UNION
        SELECT q.challenge_id FROM screenmates.challenge_participant q
        WHERE q.code = p_code AND q.seq > coalesce(p_after, -1)
    )
    SELECT true, p.challenge_id::text, p.user_id::text, m.display_name, p.state::text, p.days_kept,
        p.joined_at, p.decided_at
        FROM screenmates.challenge_participant p
        JOIN screenmates.member m ON m.code = p.code AND m.user_id = p.user_id
        WHERE p.code = p_code AND p.challenge_id IN (SELECT id FROM changed)
        ORDER BY p.challenge_id, p.joined_at, p.user_id;
END $$
;

-- As member_coins, for the members whose row changed after `p_after`.
CREATE FUNCTION screenmates.member_coins_after(p_user text, p_secret text, p_code text, p_after bigint)
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
        WHERE m.code = p_code AND m.seq > coalesce(p_after, -1) ORDER BY s.user_id;
END $$
;

-- As week_results, only the results changed after `p_after`.
CREATE FUNCTION screenmates.week_results_after(
    p_user text, p_secret text, p_code text, p_first bigint, p_last bigint, p_after bigint
) RETURNS TABLE (known boolean, user_id text, week bigint, status text, kept_days bigint, over_days bigint,
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
        WHERE r.code = p_code AND r.week BETWEEN p_first AND p_last AND r.seq > coalesce(p_after, -1)
        ORDER BY r.week, r.user_id;
END $$
;

REVOKE ALL ON FUNCTION screenmates.stamp_change, screenmates.stamp_removal, screenmates.stamp_renamed_parts,
    screenmates.stamp_standing,
    screenmates.members_after, screenmates.block_sums_after
FROM PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.change_marks, screenmates.group_changes_after, screenmates.group_members_after,
    screenmates.group_block_sums_after, screenmates.group_challenges_after,
    screenmates.challenge_participants_after, screenmates.member_coins_after, screenmates.week_results_after
TO PUBLIC
;
