-- What clients of the thirteenth level and before call to set the rules: `change_settlement_rules`
-- at the server's instant, its outcome only ('set', 'unknown', 'week-fixed').
CREATE FUNCTION screenmates.set_settlement_rules(
    p_user text, p_secret text, p_code text, p_week_start integer, p_kept bigint, p_over bigint, p_missing text
) RETURNS text
LANGUAGE sql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
    SELECT c.outcome
    FROM screenmates.change_settlement_rules(p_user, p_secret, p_code, p_week_start, p_kept, p_over, p_missing, NULL) c
$$
;

GRANT EXECUTE ON FUNCTION screenmates.set_settlement_rules TO PUBLIC
;
