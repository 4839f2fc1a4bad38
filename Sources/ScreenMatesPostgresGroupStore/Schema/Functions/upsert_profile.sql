-- Stores the caller's profile as their machine `first`'s (what the clients of the third to
-- fourteenth schemas send; `upsert_machine_profile` names the machine).
CREATE FUNCTION screenmates.upsert_profile(
    p_user text, p_secret text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_profile_of(v_user, 'first', p_name, p_blocks, p_day, p_streak, p_last_active,
        p_last_updated, p_version, NULL);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.upsert_profile TO PUBLIC
;
