-- Stores the caller's profile in every group they are in where it is newer (all or nothing: a name
-- taken in one group changes none); SMNOT names the group they were in last when they are in none.
CREATE FUNCTION screenmates.upsert_profile(
    p_user text, p_secret text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_key text := screenmates.name_key(p_name);
BEGIN
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    RETURN screenmates.apply_profile(screenmates.lock_my_groups(v_user), v_user, p_name, v_key, p_blocks, p_day,
        p_streak, p_last_active, p_last_updated, p_version) > 0;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.upsert_profile TO PUBLIC
;
