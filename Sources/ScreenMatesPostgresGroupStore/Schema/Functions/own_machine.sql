-- One of the member's machines that may write, its row locked: `first` through `first_machine`;
-- SMDEV for a machine the member has not added (another member's id names nothing of theirs),
-- SMRET for one they removed. Its last sighting moves, to the minute. The caller holds the
-- member's groups' rows locked (groups, then the identity, then machines: no two calls wait on
-- each other crosswise).
CREATE FUNCTION screenmates.own_machine(p_user text, p_machine text) RETURNS screenmates.machine
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE;
    v_now bigint := screenmates.server_ms();
BEGIN
    PERFORM screenmates.check_machine(p_machine, NULL);
    IF p_machine = 'first' THEN
        RETURN screenmates.first_machine(p_user);
    END IF;
    v_machine := screenmates.machine_of(p_user, p_machine);
    IF v_machine.last_seen < v_now - 60000 THEN
        UPDATE screenmates.machine m SET last_seen = v_now WHERE m.user_id = p_user AND m.machine_id = p_machine
            RETURNING * INTO v_machine;
    END IF;
    RETURN v_machine;
END $$
;
