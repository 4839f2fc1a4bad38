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

GRANT EXECUTE ON FUNCTION screenmates.group_members_after TO PUBLIC
;
