-- NULL for a code that names no group.
CREATE FUNCTION screenmates.change_mark(p_user text, p_secret text, p_code text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text;
    v_mark bigint;
BEGIN
    -- The usual call: a member known by this login and this secret, asking about a group of
    -- theirs. What `caller` and `group_access` would let through, in one statement.
    SELECT v.change_seq INTO v_mark FROM screenmates.verified_marks(p_user, p_secret, p_code) v;
    IF FOUND THEN
        RETURN v_mark;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.change_seq FROM screenmates.group_info g WHERE g.code = p_code);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.change_mark TO PUBLIC
;
