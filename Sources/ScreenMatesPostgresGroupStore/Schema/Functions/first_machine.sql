-- The machine the clients of the third to fourteenth schemas write as, `first`, its row locked:
-- made on its first write (within the quotas), refused (SMVAL, which those clients show) once a
-- machine of the member's took it over or the member removed it: their writes would count that
-- home twice, or a machine that was removed. The caller holds the member's groups' rows locked.
CREATE FUNCTION screenmates.first_machine(p_user text) RETURNS screenmates.machine
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE;
    v_now bigint := screenmates.server_ms();
    v_name text := 'first';
    v_number int := 1;
BEGIN
    SELECT * INTO v_machine FROM screenmates.machine m WHERE m.user_id = p_user AND m.machine_id = 'first' FOR UPDATE;
    IF FOUND AND v_machine.retired_at IS NOT NULL THEN
        PERFORM screenmates.refuse('This machine was removed from your machines (screenmates devices): it sends nothing more.');
    END IF;
    IF FOUND THEN
        IF v_machine.last_seen < v_now - 60000 THEN
            UPDATE screenmates.machine m SET last_seen = v_now WHERE m.user_id = p_user AND m.machine_id = 'first'
                RETURNING * INTO v_machine;
        END IF;
        RETURN v_machine;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.machine m WHERE m.user_id = p_user AND m.adopted_first) THEN
        PERFORM screenmates.refuse('ScreenMates on this machine is older than on your other machines: update it here. '
            || 'Its usage reaches your group again once it is updated.');
    END IF;
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = p_user FOR UPDATE;
    PERFORM screenmates.machine_quota(p_user);
    WHILE EXISTS (SELECT 1 FROM screenmates.machine m
        WHERE m.user_id = p_user AND m.retired_at IS NULL AND lower(m.name) = lower(v_name))
    LOOP
        v_number := v_number + 1;
        v_name := 'first-' || v_number;
    END LOOP;
    INSERT INTO screenmates.machine (user_id, machine_id, name, added_at, last_seen)
        VALUES (p_user, 'first', v_name, v_now, v_now)
        RETURNING * INTO v_machine;
    RETURN v_machine;
END $$
;
