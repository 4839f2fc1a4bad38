-- Adds a machine of the caller's under a name free among their machines in use (SMDNM otherwise)
-- and answers 'added'; 'known' when it was added before (SMRET when it was removed). With
-- `p_adopt`, while the caller has a `first` machine in use (what their clients of the third to
-- fourteenth schemas wrote as), the machine takes it over with every day it wrote ('adopted'): the
-- versions start again from 0, so its own totals replace them, no sum changes, and `first`
-- writes no more. Quotas: `machine_quota`. Locks: the caller's groups (when adopting), then their
-- identity, then machines.
CREATE FUNCTION screenmates.add_machine(p_user text, p_secret text, p_machine text, p_name text, p_adopt boolean)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_now bigint := screenmates.server_ms();
    v_known screenmates.machine%ROWTYPE;
    v_first screenmates.machine%ROWTYPE;
BEGIN
    PERFORM screenmates.check_machine(p_machine, p_name);
    IF p_machine = 'first' OR p_name IS NULL THEN
        PERFORM screenmates.refuse('A machine is added with an id of its own and a name.');
    END IF;
    IF p_adopt THEN
        PERFORM 1 FROM screenmates.group_info g
            WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = v_user)
            ORDER BY g.code FOR UPDATE;
    END IF;
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = v_user FOR UPDATE;
    SELECT * INTO v_known FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id = p_machine FOR UPDATE;
    IF FOUND THEN
        IF v_known.retired_at IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'SMRET', MESSAGE = 'This machine was removed from your machines.',
                DETAIL = v_known.name;
        END IF;
        RETURN 'known';
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.machine m
        WHERE m.user_id = v_user AND m.retired_at IS NULL AND lower(m.name) = lower(p_name))
    THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDNM', MESSAGE = 'Another of your machines has this name.', DETAIL = p_name;
    END IF;
    IF p_adopt THEN
        SELECT * INTO v_first FROM screenmates.machine m
            WHERE m.user_id = v_user AND m.machine_id = 'first' AND m.retired_at IS NULL FOR UPDATE;
        IF FOUND THEN
            INSERT INTO screenmates.machine (user_id, machine_id, name, added_at, last_seen, adopted_first,
                blocks_today, day, streak, version, sent_name)
            VALUES (v_user, p_machine, p_name, v_first.added_at, v_now, true, v_first.blocks_today, v_first.day,
                v_first.streak, 0, v_first.sent_name);
            UPDATE screenmates.machine_day_total t SET machine_id = p_machine, version = 0
                WHERE t.user_id = v_user AND t.machine_id = 'first';
            DELETE FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id = 'first';
            RETURN 'adopted';
        END IF;
    END IF;
    PERFORM screenmates.machine_quota(v_user);
    INSERT INTO screenmates.machine (user_id, machine_id, name, added_at, last_seen)
        VALUES (v_user, p_machine, p_name, v_now, v_now);
    RETURN 'added';
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.add_machine TO PUBLIC
;
