-- Stores the caller's profile as one of their machines' in every group they are in (see
-- `store_profile_of`), with the machine's productive blocks today when it says them (p_productive_today,
-- which only the member reads back); SMNOT names the group they were in last when they are in none.
CREATE FUNCTION screenmates.upsert_machine_profile(
    p_user text, p_secret text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint DEFAULT NULL
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_profile_of(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_last_active,
        p_last_updated, p_version, p_productive_today);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.upsert_machine_profile TO PUBLIC
;
