-- The day (number) an instant in milliseconds falls on, in UTC.
CREATE FUNCTION screenmates.day_of(p_ms bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT floor(p_ms / 86400000.0)::bigint
$$
;
