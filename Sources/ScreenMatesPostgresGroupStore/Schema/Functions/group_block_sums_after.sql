-- As group_block_sums, for the members with a day total in the days changed after `p_after`.
CREATE FUNCTION screenmates.group_block_sums_after(
    p_user text, p_secret text, p_code text, p_first bigint, p_last bigint, p_after bigint
) RETURNS TABLE (known boolean, user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint,
    version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, s.user_id, s.blocks, s.date, s.vice_blocks, s.goal_blocks, s.version
        FROM screenmates.block_sums_after(p_code, p_first, p_last, p_after) s;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.group_block_sums_after TO PUBLIC
;
