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
