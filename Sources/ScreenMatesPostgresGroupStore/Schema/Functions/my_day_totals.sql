-- The caller's own day totals in one group, every day the group holds.
CREATE FUNCTION screenmates.my_day_totals(p_user text, p_secret text, p_code text)
RETURNS TABLE (date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT d.date, d.vice_blocks, d.goal_blocks, d.version FROM screenmates.day_total d
        WHERE d.code = p_code AND d.user_id = v_user ORDER BY d.date;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.my_day_totals TO PUBLIC
;
