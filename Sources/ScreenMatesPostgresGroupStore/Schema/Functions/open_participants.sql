-- The boards: names and outcomes, never a user id; `is_me` marks the caller's own lines.
CREATE FUNCTION screenmates.open_participants(p_user text, p_secret text)
RETURNS TABLE (challenge_id text, display_name text, state text, days_kept bigint, joined_at bigint,
    decided_at bigint, is_me boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT p.challenge_id::text, p.display_name, p.state, p.days_kept, p.joined_at, p.decided_at,
        p.user_id = v_user
        FROM screenmates.open_participant p ORDER BY p.challenge_id, p.joined_at, p.name_key;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.open_participants TO PUBLIC
;
