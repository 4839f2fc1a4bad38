-- group_access, then the group's row locked (every writing function takes it first, so they
-- never wait crosswise).
CREATE FUNCTION screenmates.lock_group(p_user text, p_code text) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT screenmates.group_access(p_user, p_code) THEN
        RETURN false;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    RETURN true;
END $$
;
