-- Removes one of the caller's machines ('first' included): it writes no more, and what it wrote
-- stays counted (its days, and its blocks today). SMDEV for one they have not. Answers whether it
-- was in use.
CREATE FUNCTION screenmates.retire_machine(p_user text, p_secret text, p_machine text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    PERFORM screenmates.check_machine(p_machine, NULL);
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = v_user FOR UPDATE;
    UPDATE screenmates.machine m SET retired_at = screenmates.server_ms()
        WHERE m.user_id = v_user AND m.machine_id = p_machine AND m.retired_at IS NULL;
    IF FOUND THEN
        RETURN true;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id = p_machine) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDEV', MESSAGE = 'The store does not know this machine of yours.',
            DETAIL = p_machine;
    END IF;
    RETURN false;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.retire_machine TO PUBLIC
;
