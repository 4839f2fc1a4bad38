-- Renames one of the caller's machines in use ('first' included): SMDEV for one they have not, SMRET
-- for one they removed, SMDNM for a name another of theirs in use has. Answers whether it changed.
CREATE FUNCTION screenmates.rename_machine(p_user text, p_secret text, p_machine text, p_name text)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_machine screenmates.machine%ROWTYPE;
BEGIN
    PERFORM screenmates.check_machine(p_machine, p_name);
    IF p_name IS NULL THEN
        PERFORM screenmates.refuse('Give the machine a name.');
    END IF;
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = v_user FOR UPDATE;
    v_machine := screenmates.machine_of(v_user, p_machine);
    IF v_machine.name = p_name THEN
        RETURN false;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id <> p_machine
        AND m.retired_at IS NULL AND lower(m.name) = lower(p_name))
    THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDNM', MESSAGE = 'Another of your machines has this name.', DETAIL = p_name;
    END IF;
    UPDATE screenmates.machine m SET name = p_name WHERE m.user_id = v_user AND m.machine_id = p_machine;
    RETURN true;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.rename_machine TO PUBLIC
;
