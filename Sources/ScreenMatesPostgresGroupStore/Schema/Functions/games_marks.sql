-- The group's change number, the change number of the last write that took a row away and that of
-- the last write that changed its games; no row for a code that names no group. Verified as
-- `change_marks` is: the usual caller in one statement, anyone else by the full path.
CREATE FUNCTION screenmates.games_marks(p_user text, p_secret text, p_code text)
RETURNS TABLE (change_seq bigint, removed_seq bigint, games_seq bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
    v_games bigint;
BEGIN
    SELECT v.change_seq, v.removed_seq, g.games_seq INTO v_mark, v_removed, v_games
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v
        JOIN screenmates.group_info g ON g.code = p_code;
    IF FOUND THEN
        RETURN QUERY SELECT v_mark, v_removed, v_games;
        RETURN;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT g.change_seq, g.removed_seq, g.games_seq FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.games_marks TO PUBLIC
;
