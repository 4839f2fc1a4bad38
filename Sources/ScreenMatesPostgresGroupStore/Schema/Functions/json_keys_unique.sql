-- Whether no object in a JSON text names a key twice. jsonb keeps the last of two equal keys
-- and the clients' decoder (Foundation's JSONDecoder) the first, so a text with both would be
-- checked here as one value and read there as another.
CREATE FUNCTION screenmates.json_keys_unique(p_value json) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_item json;
BEGIN
    IF json_typeof(p_value) = 'object' THEN
        IF (SELECT count(*) <> count(DISTINCT k) FROM json_object_keys(p_value) k) THEN
            RETURN false;
        END IF;
        FOR v_item IN SELECT e.value FROM json_each(p_value) e LOOP
            IF NOT screenmates.json_keys_unique(v_item) THEN
                RETURN false;
            END IF;
        END LOOP;
    ELSIF json_typeof(p_value) = 'array' THEN
        FOR v_item IN SELECT e FROM json_array_elements(p_value) e LOOP
            IF NOT screenmates.json_keys_unique(v_item) THEN
                RETURN false;
            END IF;
        END LOOP;
    END IF;
    RETURN true;
END $$
;
