-- The open challenges' change number, for a watcher to poll.
CREATE FUNCTION screenmates.open_changes_mark(p_user text, p_secret text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_mark bigint;
BEGIN
    SELECT CASE WHEN s.is_called THEN s.last_value ELSE 0 END INTO v_mark FROM screenmates.open_change_seq s;
    RETURN v_mark;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.open_changes_mark TO PUBLIC
;
