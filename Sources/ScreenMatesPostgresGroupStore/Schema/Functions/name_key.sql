-- A display name as every client accepts it (`is_name`), or SMVAL. Returns the key that decides
-- uniqueness in a group (computed here, never taken from a client).
CREATE FUNCTION screenmates.name_key(p_name text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT screenmates.is_name(p_name) THEN
        PERFORM screenmates.refuse('A display name is 1–20 letters, digits and underscores.');
    END IF;
    RETURN lower(p_name);
END $$
;
