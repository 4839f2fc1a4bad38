-- Creates a group with the caller, writing from one of their machines, as its first member (with
-- their today across their machines: `member_today`) and answers its code, drawn here from the
-- server's strong random source. Quotas: groups created by one identity a day, and by all the ids
-- of one login (in turns: `lock_login`), groups one member is in (the store's policy).
CREATE FUNCTION screenmates.create_group_on(
    p_user text, p_secret text, p_machine text, p_goal bigint, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
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
    v_today record;
BEGIN
    IF p_goal IS NULL OR p_goal NOT BETWEEN 1 AND 96 THEN
        PERFORM screenmates.refuse('A group''s daily goal is 1–96 blocks.');
    END IF;
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    PERFORM screenmates.check_machine(p_machine, NULL);
    IF (SELECT count(*) FROM screenmates.group_info g
        WHERE g.created_by = v_user AND g.created_on > clock_timestamp() - interval '1 day')
        >= (screenmates.policy()).groups_created_per_day
    THEN
        PERFORM screenmates.quota('You have created as many groups today as the store allows; join one or try again tomorrow.');
    END IF;
    IF NOT screenmates.caller_owns_store() THEN
        PERFORM screenmates.lock_login();
        IF (SELECT count(*) FROM screenmates.group_info g JOIN screenmates.identity d ON d.user_id = g.created_by
            WHERE d.role_name = session_user AND g.created_on > clock_timestamp() - interval '1 day')
            >= (screenmates.policy()).groups_created_per_login_per_day
        THEN
            PERFORM screenmates.quota('This login has created as many groups today as the store allows; try again tomorrow.');
        END IF;
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
    PERFORM screenmates.machine_profile(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version, NULL);
    v_today := screenmates.member_today(v_user);
    INSERT INTO screenmates.member (
        code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
        version, joined_at)
    VALUES (v_code, v_user, p_name, v_key, coalesce(v_today.blocks, p_blocks), coalesce(v_today.day, p_day), p_streak,
        p_last_active, p_last_updated, p_version, v_at);
    INSERT INTO screenmates.last_group (user_id, code) VALUES (v_user, v_code)
        ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
    RETURN QUERY SELECT v_code, v_at;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.create_group_on TO PUBLIC
;
