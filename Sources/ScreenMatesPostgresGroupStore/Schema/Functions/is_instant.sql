-- An instant in milliseconds every client can keep: GroupStoreRules.storableMilliseconds,
-- ±2,999,999,999,999,999 (the third level allowed ±3,000,000,000,000,000 itself, which every
-- client then left out of what it read).
CREATE FUNCTION screenmates.is_instant(p_ms bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT p_ms IS NOT NULL AND p_ms BETWEEN -2999999999999999 AND 2999999999999999
$$
;
