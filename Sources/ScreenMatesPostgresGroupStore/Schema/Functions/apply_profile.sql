-- Brings the member's row in each of `p_codes` up to date after one of their machines sent a
-- newer profile: blocks and day are the member's today (`member_today`, every machine's), the
-- streak and instants the machine's, the version the highest seen. The name changes only when
-- `p_rename` (the machine sent a name other than the one it sent last), so a machine still
-- sending an old name does not undo a rename made on another; all or nothing (a name taken in one
-- of the groups changes none: SMNAM). Only a row that differs is written, and its group's change
-- number moved. Returns how many rows changed. The caller holds the groups' rows locked and
-- checked the values (`p_key` is the name's `name_key`).
CREATE FUNCTION screenmates.apply_profile(
    p_codes text[], p_user text, p_name text, p_key text, p_rename boolean, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint
) RETURNS bigint
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_today record := screenmates.member_today(p_user);
    v_code text;
    v_count bigint := 0;
BEGIN
    IF p_rename AND EXISTS (
        SELECT 1 FROM screenmates.member m
        JOIN screenmates.member o ON o.code = m.code AND o.name_key = p_key AND o.user_id <> p_user
        WHERE m.user_id = p_user AND m.code = ANY (p_codes)
    ) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMNAM', MESSAGE = 'The display name is taken in the group.';
    END IF;
    FOR v_code IN
        UPDATE screenmates.member m SET
            display_name = CASE WHEN p_rename THEN p_name ELSE m.display_name END,
            name_key = CASE WHEN p_rename THEN p_key ELSE m.name_key END,
            blocks_today = v_today.blocks, day = v_today.day, streak = p_streak, last_active = p_last_active,
            last_updated = p_last_updated, version = greatest(m.version, p_version)
        WHERE m.user_id = p_user AND m.code = ANY (p_codes)
            AND (m.display_name, m.blocks_today, m.day, m.streak, m.last_active, m.last_updated, m.version)
                IS DISTINCT FROM (CASE WHEN p_rename THEN p_name ELSE m.display_name END, v_today.blocks, v_today.day,
                    p_streak, p_last_active, p_last_updated, greatest(m.version, p_version))
        RETURNING m.code
    LOOP
        PERFORM screenmates.touch(v_code);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END $$
;
