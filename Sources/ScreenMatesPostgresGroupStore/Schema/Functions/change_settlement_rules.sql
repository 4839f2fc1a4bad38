-- Sets a group's settlement rules as SettlementSchedule.set does: the week start at once (only
-- while no week has a result: 'week-fixed' otherwise), the rates at once while the caller is the
-- group's only member, else from the first week that has begun nowhere on Earth at the call's
-- instant (UTC+14), replacing every change from that week on. `from_day` is that week's first
-- day, NULL when the rates changed at once; outcome 'set', or 'unknown' (code).
CREATE FUNCTION screenmates.change_settlement_rules(
    p_user text, p_secret text, p_code text, p_week_start integer, p_kept bigint, p_over bigint, p_missing text,
    p_now bigint
) RETURNS TABLE (outcome text, from_day bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_from bigint;
    v_before record;
BEGIN
    PERFORM screenmates.check_settlement_rules(p_week_start, p_kept, p_over, p_missing);
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code AND g.week_start <> p_week_start)
        AND EXISTS (SELECT 1 FROM screenmates.week_result r WHERE r.code = p_code)
    THEN
        RETURN QUERY SELECT 'week-fixed'::text, NULL::bigint;
        RETURN;
    END IF;
    UPDATE screenmates.group_info g SET week_start = p_week_start WHERE g.code = p_code AND g.week_start <> p_week_start;
    IF (SELECT count(*) FROM screenmates.member m WHERE m.code = p_code) = 1 THEN
        UPDATE screenmates.group_info g SET kept_day_coins = p_kept, over_day_coins = p_over, missing_days = p_missing
            WHERE g.code = p_code;
        DELETE FROM screenmates.rules_change c WHERE c.code = p_code;
        PERFORM screenmates.touch(p_code);
        RETURN QUERY SELECT 'set'::text, NULL::bigint;
        RETURN;
    END IF;
    v_from := screenmates.week_first_day(floor((v_at + 50400000)::numeric / 86400000)::bigint, p_week_start) + 7;
    DELETE FROM screenmates.rules_change c WHERE c.code = p_code AND c.from_day >= v_from;
    SELECT coalesce(c.kept_day_coins, g.kept_day_coins) AS kept, coalesce(c.over_day_coins, g.over_day_coins) AS over,
        coalesce(c.missing_days, g.missing_days) AS missing
        INTO v_before
        FROM screenmates.group_info g
        LEFT JOIN LATERAL (
            SELECT * FROM screenmates.rules_change c WHERE c.code = g.code ORDER BY c.from_day DESC LIMIT 1
        ) c ON true
        WHERE g.code = p_code;
    IF (v_before.kept, v_before.over, v_before.missing) IS DISTINCT FROM (p_kept, p_over, p_missing) THEN
        INSERT INTO screenmates.rules_change (code, from_day, kept_day_coins, over_day_coins, missing_days)
            VALUES (p_code, v_from, p_kept, p_over, p_missing);
    END IF;
    PERFORM screenmates.touch(p_code);
    RETURN QUERY SELECT 'set'::text, v_from;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.change_settlement_rules TO PUBLIC
;
