-- outcome: 'set', 'unknown' (code), 'week-fixed' (a week was settled already).
CREATE FUNCTION screenmates.set_settlement_rules(
    p_user text, p_secret text, p_code text, p_week_start integer, p_kept bigint, p_over bigint, p_missing text
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    PERFORM screenmates.check_settlement_rules(p_week_start, p_kept, p_over, p_missing);
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code AND g.week_start <> p_week_start)
        AND EXISTS (SELECT 1 FROM screenmates.week_result r WHERE r.code = p_code)
    THEN
        RETURN 'week-fixed';
    END IF;
    UPDATE screenmates.group_info g SET week_start = p_week_start, kept_day_coins = p_kept,
        over_day_coins = p_over, missing_days = p_missing WHERE g.code = p_code;
    PERFORM screenmates.touch(p_code);
    RETURN 'set';
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.set_settlement_rules TO PUBLIC
;
