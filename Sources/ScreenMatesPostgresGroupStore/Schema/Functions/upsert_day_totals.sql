-- The caller's own totals only, as their machine `first`'s (what the clients of the third to
-- fourteenth schemas send; `upsert_machine_days` names the machine): see `store_machine_days`.
-- At most 1000 at once.
CREATE FUNCTION screenmates.upsert_day_totals(
    p_user text, p_secret text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[],
    p_versions bigint[]
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_days_of(v_user, 'first', p_code, p_dates, p_vice, p_goals, p_versions, NULL);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.upsert_day_totals TO PUBLIC
;
