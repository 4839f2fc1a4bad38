-- A group's settlement rules and the changes of its rates still to come, for a member of it
-- (SettlementSchedule): first the group's own (from_day NULL), then each change from the first
-- day of the week it takes effect from, oldest first.
CREATE FUNCTION screenmates.settlement_schedule(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, from_day bigint, week_start integer, kept_day_coins bigint, over_day_coins bigint,
    missing_days text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::bigint, NULL::integer, NULL::bigint, NULL::bigint, NULL::text;
        RETURN;
    END IF;
    RETURN QUERY
        SELECT true, NULL::bigint, g.week_start, g.kept_day_coins, g.over_day_coins, g.missing_days::text
        FROM screenmates.group_info g WHERE g.code = p_code
        UNION ALL
        (SELECT true, c.from_day, g.week_start, c.kept_day_coins, c.over_day_coins, c.missing_days::text
        FROM screenmates.rules_change c JOIN screenmates.group_info g ON g.code = c.code
        WHERE c.code = p_code ORDER BY c.from_day);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.settlement_schedule TO PUBLIC
;
