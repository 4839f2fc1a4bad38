-- One of the member's machines in use, its row locked: SMDEV for one they have not (another member's
-- id names nothing of theirs), SMRET for one they removed.
CREATE FUNCTION screenmates.machine_of(p_user text, p_machine text) RETURNS screenmates.machine
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE;
BEGIN
    SELECT * INTO v_machine FROM screenmates.machine m WHERE m.user_id = p_user AND m.machine_id = p_machine FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDEV', MESSAGE = 'The store does not know this machine of yours.',
            DETAIL = p_machine;
    END IF;
    IF v_machine.retired_at IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SMRET', MESSAGE = 'This machine was removed from your machines.',
            DETAIL = v_machine.name;
    END IF;
    RETURN v_machine;
END $$
;
