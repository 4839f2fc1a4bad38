-- Joins the caller to a group by its code ('found'), writing from one of their machines, or
-- answers 'unknown' (a wrong code, written down against the caller) or 'limited' (too many wrong
-- codes: the seconds to wait). A member who is in it already has their profile updated as
-- `upsert_machine_profile` would, in this group; a new one comes in with their today across their
-- machines (`member_today`). The name must be free in the group.
CREATE FUNCTION screenmates.join_group_on(
    p_user text, p_secret text, p_machine text, p_code text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
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
    v_stored record;
    v_today record;
BEGIN
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    PERFORM screenmates.check_machine(p_machine, NULL);
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
        v_stored := screenmates.machine_profile(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version,
            NULL);
        IF v_stored.stored THEN
            PERFORM screenmates.apply_profile(ARRAY[p_code], v_user, p_name, v_key, v_stored.renamed, p_streak,
                p_last_active, p_last_updated, p_version);
        END IF;
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
        PERFORM screenmates.machine_profile(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version, NULL);
        v_today := screenmates.member_today(v_user);
        INSERT INTO screenmates.member (
            code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
            version, joined_at)
        VALUES (p_code, v_user, p_name, v_key, coalesce(v_today.blocks, p_blocks), coalesce(v_today.day, p_day),
            p_streak, p_last_active, p_last_updated, p_version, v_at);
        INSERT INTO screenmates.last_group (user_id, code) VALUES (v_user, p_code)
            ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.join_group_on TO PUBLIC
;
