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

GRANT EXECUTE ON FUNCTION screenmates.my_memberships TO PUBLIC
;
