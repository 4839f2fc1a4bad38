-- The group's change number and the change number of the last write that took a row away; no row
-- for a code that names no group.
CREATE FUNCTION screenmates.change_marks(p_user text, p_secret text, p_code text)
RETURNS TABLE (change_seq bigint, removed_seq bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
BEGIN
    -- The usual call in one statement (see change_mark).
    SELECT v.change_seq, v.removed_seq INTO v_mark, v_removed
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v;
    IF FOUND THEN
        RETURN QUERY SELECT v_mark, v_removed;
        RETURN;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT g.change_seq, g.removed_seq FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.change_marks TO PUBLIC
;
