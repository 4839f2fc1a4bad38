-- A whole number from 0 to p_max written as JSON, or NULL.
CREATE FUNCTION screenmates.json_count(p_value jsonb, p_max integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_value IS NULL OR jsonb_typeof(p_value) <> 'number' OR p_value::text !~ '^[0-9]{1,6}$'
        OR p_value::text::integer > p_max
    THEN
        RETURN NULL;
    END IF;
    RETURN p_value::text::integer;
END $$
;
