-- As challenge_participants, every participant of the challenges group_challenges_after returns.
CREATE FUNCTION screenmates.challenge_participants_after(p_user text, p_secret text, p_code text, p_after bigint)
RETURNS TABLE (known boolean, challenge_id text, user_id text, display_name text, state text,
    days_kept bigint, joined_at bigint, decided_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint,
            NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY
    WITH changed AS (
        SELECT c.id FROM screenmates.group_challenge c WHERE c.code = p_code AND c.seq > coalesce(p_after, -1)
        UNION
        SELECT q.challenge_id FROM screenmates.challenge_participant q
        WHERE q.code = p_code AND q.seq > coalesce(p_after, -1)
    )
    SELECT true, p.challenge_id::text, p.user_id::text, m.display_name, p.state::text, p.days_kept,
        p.joined_at, p.decided_at
        FROM screenmates.challenge_participant p
        JOIN screenmates.member m ON m.code = p.code AND m.user_id = p.user_id
        WHERE p.code = p_code AND p.challenge_id IN (SELECT id FROM changed)
        ORDER BY p.challenge_id, p.joined_at, p.user_id;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.challenge_participants_after TO PUBLIC
;
