-- A group's day totals in `p_first…p_last`, for a member of it.
CREATE FUNCTION screenmates.group_day_totals(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, date bigint, vice_blocks bigint, goal_blocks bigint,
    version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, d.user_id::text, d.date, d.vice_blocks, d.goal_blocks, d.version
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last ORDER BY d.date, d.user_id;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.group_day_totals TO PUBLIC
;
