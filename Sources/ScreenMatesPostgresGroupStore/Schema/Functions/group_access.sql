-- How a verified member reaches a group by its code: true when they are a member; false when
-- the code names no group (written down as a wrong code, so the caller must answer, not
-- raise); SMNOT when the group exists but they are not in it; SMLIM while they are limited.
CREATE FUNCTION screenmates.group_access(p_user text, p_code text) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_now bigint := screenmates.server_ms();
    v_wait bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user) THEN
        RETURN true;
    END IF;
    v_wait := screenmates.retry_after(p_user, v_now);
    IF v_wait IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SMLIM', MESSAGE = 'Too many wrong group codes.', DETAIL = v_wait::text;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMNOT', MESSAGE = 'Not a member of the group.', DETAIL = p_code;
    END IF;
    PERFORM screenmates.record_failed_attempt(p_user, v_now);
    RETURN false;
END $$
;
