-- A group's members in the order they joined, for a member of it (`known` is false for anyone
-- else).
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

GRANT EXECUTE ON FUNCTION screenmates.group_members TO PUBLIC
;
