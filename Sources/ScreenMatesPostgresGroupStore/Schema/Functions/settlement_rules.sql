-- A group's settlement rules as set last (week start, coins a kept day earns and a day over costs,
-- what a missing day counts as), for a member of it: what clients of the thirteenth level and
-- before read. Later clients read `settlement_schedule`.
CREATE FUNCTION screenmates.settlement_rules(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, week_start integer, kept_day_coins bigint, over_day_coins bigint,
    missing_days text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::integer, NULL::bigint, NULL::bigint, NULL::text;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, g.week_start, coalesce(c.kept_day_coins, g.kept_day_coins),
            coalesce(c.over_day_coins, g.over_day_coins), coalesce(c.missing_days, g.missing_days)::text
        FROM screenmates.group_info g
        LEFT JOIN LATERAL (
            SELECT * FROM screenmates.rules_change c WHERE c.code = g.code ORDER BY c.from_day DESC LIMIT 1
        ) c ON true
        WHERE g.code = p_code;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.settlement_rules TO PUBLIC
;
