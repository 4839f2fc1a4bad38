-- The caller's own totals only, as one of their machines' (see `store_machine_days`), with the
-- machine's productive blocks of each day when it says them (p_productive, which only the member
-- reads back); at most 1000 at once. Answers false for a code that names no group.
CREATE FUNCTION screenmates.upsert_machine_days(
    p_user text, p_secret text, p_machine text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[],
    p_versions bigint[], p_productive bigint[] DEFAULT NULL
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_days_of(v_user, p_machine, p_code, p_dates, p_vice, p_goals, p_versions,
        p_productive);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.upsert_machine_days TO PUBLIC
;
