-- Stores what one of the member's machines says of today when it is newer than what that machine
-- said last, and answers whether it was (then `apply_profile` brings the member's rows up to
-- date, with `p_rename` when the name is not the one this machine sent last). The caller holds the
-- member's groups' rows locked and checked the values.
CREATE FUNCTION screenmates.machine_profile(
    p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_version bigint,
    p_productive_today bigint, OUT stored boolean, OUT renamed boolean
)
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE := screenmates.own_machine(p_user, p_machine);
BEGIN
    stored := p_version > v_machine.version;
    renamed := v_machine.sent_name IS DISTINCT FROM p_name;
    IF stored THEN
        UPDATE screenmates.machine m SET blocks_today = p_blocks, day = p_day, streak = p_streak, version = p_version,
            sent_name = p_name, productive_today = p_productive_today
        WHERE m.user_id = p_user AND m.machine_id = v_machine.machine_id;
    END IF;
END $$
;
