-- A group's challenges, newest first, for a member of it (`known` is false for anyone else).
CREATE FUNCTION screenmates.group_challenges(p_user text, p_secret text, p_code text)
RETURNS TABLE (known boolean, id text, creator_id text, rule text, first_day bigint, days bigint,
    reward bigint, penalty bigint, starts_at bigint, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, c.id::text, c.creator_id::text, c.rule, c.first_day, c.days, c.reward, c.penalty,
        c.starts_at, c.created_at
        FROM screenmates.group_challenge c WHERE c.code = p_code ORDER BY c.created_at DESC, c.id;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.group_challenges TO PUBLIC
;
