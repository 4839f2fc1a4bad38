-- A user id as every client makes it (UserID): 1–64 letters, digits, '-' or '_'.
CREATE FUNCTION screenmates.check_user_id(p_user text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_user IS NULL OR p_user !~ '^[A-Za-z0-9_-]{1,64}$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL',
            MESSAGE = 'A user id has 1–64 letters, digits, ''-'' or ''_''.';
    END IF;
END $$
;
