-- Each member's vice blocks over the days, from the rows every client accepts (the bounds of
-- GroupStoreRules, a sum that never passes 2^53), as group_block_sums; with `p_after`, only for
-- the members with a total in the days changed after it. A row no client would accept comes back
-- as it is (`blocks` NULL, with its date), for the client to leave out and name.
CREATE FUNCTION screenmates.block_sums_after(p_code text, p_first bigint, p_last bigint, p_after bigint)
RETURNS TABLE (user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
LANGUAGE plpgsql STABLE SET search_path = screenmates, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_users text[];
BEGIN
    IF p_after IS NOT NULL THEN
        -- Most looks follow a profile, not a day: the index on (code, seq) answers at once.
        SELECT array_agg(DISTINCT c.user_id) INTO v_users FROM screenmates.day_total c
            WHERE c.code = p_code AND c.seq > p_after AND c.date BETWEEN p_first AND p_last;
        IF v_users IS NULL THEN
            RETURN;
        END IF;
    END IF;
    RETURN QUERY
    WITH rows AS (
        SELECT d.*, (length(d.user_id) BETWEEN 1 AND 64 AND d.user_id ~ '^[A-Za-z0-9_-]+$'
            AND d.vice_blocks BETWEEN 0 AND 1440 AND d.goal_blocks BETWEEN 0 AND 96) AS accepted
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last
            AND (v_users IS NULL OR d.user_id = ANY (v_users))
    )
    SELECT r.user_id::text, least(sum(r.vice_blocks), 9007199254740992)::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint
        FROM rows r WHERE r.accepted GROUP BY r.user_id
    UNION ALL
    SELECT r.user_id::text, NULL::bigint, r.date, r.vice_blocks, r.goal_blocks, r.version
        FROM rows r WHERE NOT r.accepted;
END $$
;
