-- Every open challenge, newest first. Any verified member may read them.
CREATE FUNCTION screenmates.open_challenges(p_user text, p_secret text)
RETURNS TABLE (id text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint,
    starts_at bigint, published_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT c.id::text, c.rule, c.first_day, c.days, c.reward, c.penalty, c.starts_at, c.published_at
        FROM screenmates.open_challenge c ORDER BY c.published_at DESC, c.id;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.open_challenges TO PUBLIC
;
