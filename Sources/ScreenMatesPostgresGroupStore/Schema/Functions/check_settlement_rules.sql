-- Settlement rules as every client checks them (SettlementRules.problem): a week starting on an
-- ISO weekday 1–7, 0–1000 coins a kept day earns and a day over costs, missing days waiting
-- ('pending') or counted as days over ('worst-case').
CREATE FUNCTION screenmates.check_settlement_rules(
    p_week_start integer, p_kept bigint, p_over bigint, p_missing text
) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_week_start IS NULL OR p_week_start NOT BETWEEN 1 AND 7 OR p_kept IS NULL OR p_kept NOT BETWEEN 0 AND 1000
        OR p_over IS NULL OR p_over NOT BETWEEN 0 AND 1000 OR p_missing IS NULL
        OR p_missing NOT IN ('pending', 'worst-case')
    THEN
        PERFORM screenmates.refuse('Settlement rules: a week start 1–7, 0–1000 coins a day, pending or worst-case.');
    END IF;
END $$
;
