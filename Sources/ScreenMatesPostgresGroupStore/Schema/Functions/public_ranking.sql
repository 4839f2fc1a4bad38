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

GRANT EXECUTE ON FUNCTION screenmates.public_ranking TO PUBLIC
;
