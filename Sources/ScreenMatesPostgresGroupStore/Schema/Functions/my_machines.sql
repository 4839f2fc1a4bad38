-- The caller's machines, removed ones too, in the order they were added: what each is called, when
-- it was added, last wrote and was removed, and what it last said of today (its own blocks, and its
-- productive ones when it said them). Only
-- the member reads them; other members see the member's sums.
CREATE FUNCTION screenmates.my_machines(p_user text, p_secret text)
RETURNS TABLE (machine_id text, name text, added_at bigint, last_seen bigint, retired_at bigint,
    adopted_first boolean, blocks_today bigint, day bigint, version bigint, productive_today bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT m.machine_id, m.name, m.added_at, m.last_seen, m.retired_at, m.adopted_first,
        m.blocks_today, m.day, m.version, m.productive_today
    FROM screenmates.machine m WHERE m.user_id = v_user ORDER BY m.added_at, m.machine_id;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.my_machines TO PUBLIC
;
