-- Creates a group with the caller as their machine `first` (what the clients of the third to
-- fourteenth schemas send): see `create_group_on`.
CREATE FUNCTION screenmates.create_group(
    p_user text, p_secret text, p_goal bigint, p_name text, p_blocks bigint, p_day bigint, p_streak bigint,
    p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint
) RETURNS TABLE (code text, created_at bigint)
LANGUAGE sql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
    SELECT * FROM screenmates.create_group_on(p_user, p_secret, 'first', p_goal, p_name, p_blocks, p_day, p_streak,
        p_last_active, p_last_updated, p_version, p_now)
$$
;

GRANT EXECUTE ON FUNCTION screenmates.create_group TO PUBLIC
;
