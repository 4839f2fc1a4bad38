-- The keys of a JSON object, sorted; NULL for anything that is not an object.
CREATE FUNCTION screenmates.json_keys(p_value jsonb) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_value IS NULL OR jsonb_typeof(p_value) <> 'object' THEN
        RETURN NULL;
    END IF;
    RETURN ARRAY(SELECT k FROM jsonb_object_keys(p_value) k ORDER BY k);
END $$
;
