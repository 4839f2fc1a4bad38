-- Each member's vice blocks added up over the days, from the rows every client accepts (the
-- bounds of GroupStoreRules, and a sum that never passes 2^53); a row no client would accept
-- comes back as it is (with its date), for the client to leave out and name.
CREATE FUNCTION screenmates.group_block_sums(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint,
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
    RETURN QUERY
    WITH rows AS (
        SELECT d.*, (d.user_id ~ '^[A-Za-z0-9_-]{1,64}$' AND d.vice_blocks BETWEEN 0 AND 1440
            AND d.goal_blocks BETWEEN 0 AND 96) AS accepted
        FROM screenmates.day_total d WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last
    )
    SELECT true, r.user_id::text, least(sum(r.vice_blocks), 9007199254740992)::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint
        FROM rows r WHERE r.accepted GROUP BY r.user_id
    UNION ALL
    SELECT true, r.user_id::text, NULL::bigint, r.date, r.vice_blocks, r.goal_blocks, r.version
        FROM rows r WHERE NOT r.accepted;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.group_block_sums TO PUBLIC
;
