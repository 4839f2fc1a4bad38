-- The caller's own machines' day totals in one group for `p_first…p_last`, by date and machine:
-- what each machine sent, of which every other reader sees the sum. Answers one row with `known`
-- false for a code that names no group (written down as a wrong code); SMNOT outside the group.
CREATE FUNCTION screenmates.my_machine_days(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint)
RETURNS TABLE (known boolean, machine_id text, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint,
    productive_blocks bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, t.machine_id::text, t.date, t.vice_blocks, t.goal_blocks, t.version, t.productive_blocks
        FROM screenmates.machine_day_total t
        WHERE t.code = p_code AND t.user_id = v_user AND t.date BETWEEN p_first AND p_last
        ORDER BY t.date, t.machine_id <> 'first', t.machine_id;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.my_machine_days TO PUBLIC
;
