-- The coins and badges of a group's members, for a member of it.
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

GRANT EXECUTE ON FUNCTION screenmates.member_coins TO PUBLIC
;
