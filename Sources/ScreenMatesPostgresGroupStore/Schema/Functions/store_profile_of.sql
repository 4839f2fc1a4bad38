-- What `upsert_profile` and `upsert_machine_profile` do for their verified caller: the values
-- checked, the member's groups' rows locked, the machine's profile stored when newer than its last
-- (`machine_profile`), then the member's row in every group (`apply_profile`). Answers whether the
-- machine's profile was newer.
CREATE FUNCTION screenmates.store_profile_of(
    p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint
) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_key text := screenmates.name_key(p_name);
    v_codes text[];
    v_stored record;
BEGIN
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version,
        p_productive_today);
    PERFORM screenmates.check_machine(p_machine, NULL);
    v_codes := screenmates.lock_my_groups(p_user);
    v_stored := screenmates.machine_profile(p_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version,
        p_productive_today);
    IF NOT v_stored.stored THEN
        RETURN false;
    END IF;
    PERFORM screenmates.apply_profile(v_codes, p_user, p_name, v_key, v_stored.renamed, p_streak, p_last_active,
        p_last_updated, p_version);
    RETURN true;
END $$
;
