-- A group's week results for the weeks starting in `p_first…p_last`, for a member of it.
CREATE FUNCTION screenmates.week_results(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, week bigint, status text, kept_days bigint, over_days bigint,
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
        WHERE r.code = p_code AND r.week BETWEEN p_first AND p_last ORDER BY r.week, r.user_id;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.week_results TO PUBLIC
;
