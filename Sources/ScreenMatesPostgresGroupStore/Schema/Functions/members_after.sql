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
