-- A profile's version: every client counts from 1, and JSON keeps integers exactly up to 2^53.
CREATE FUNCTION screenmates.check_version(p_version bigint) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_version IS NULL OR p_version NOT BETWEEN 1 AND 9007199254740992 THEN
        PERFORM screenmates.refuse('A version is 1 to 2^53.');
    END IF;
END $$
;
