-- The member's day totals, challenge parts and week results go with them (ON DELETE CASCADE);
-- a group left empty goes too. Leaving a group one is not in changes nothing; it tells whether
-- the code names a group, so it answers only within the caller's budget of wrong codes, as
-- find_group does.
CREATE FUNCTION screenmates.leave_group(p_user text, p_secret text, p_code text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_wait bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user) THEN
        v_wait := screenmates.retry_after(v_user, screenmates.server_ms());
        IF v_wait IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'SMLIM', MESSAGE = 'Too many wrong group codes.', DETAIL = v_wait::text;
        END IF;
        IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code) THEN
            RETURN true;
        END IF;
        RETURN screenmates.group_access(v_user, p_code);
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    DELETE FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user;
    PERFORM screenmates.touch(p_code);
    PERFORM screenmates.drop_if_empty(p_code);
    RETURN true;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.leave_group TO PUBLIC
;
