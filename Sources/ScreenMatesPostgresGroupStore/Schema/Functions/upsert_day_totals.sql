-- The caller's own totals only, for days from the day they joined (on the server's clock) to a
-- day that is today somewhere; others are left out, as are more than 1000 at once. Of several
-- totals for one day, the highest version (the first of equal ones) is the one offered.
CREATE FUNCTION screenmates.upsert_day_totals(
    p_user text, p_secret text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[],
    p_versions bigint[]
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_first bigint;
    v_last bigint := screenmates.last_possible_today();
    v_count bigint;
BEGIN
    IF greatest(cardinality(p_dates), cardinality(p_vice), cardinality(p_goals), cardinality(p_versions)) > 1000 THEN
        PERFORM screenmates.refuse('At most 1000 day totals are sent at once.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN false;
    END IF;
    IF NOT screenmates.members_choose_clock() THEN
        SELECT screenmates.day_of(m.joined_at) - 2 INTO v_first FROM screenmates.member m
            WHERE m.code = p_code AND m.user_id = v_user;
    END IF;
    INSERT INTO screenmates.day_total (code, user_id, date, vice_blocks, goal_blocks, version)
    SELECT DISTINCT ON (t.date) p_code, v_user, t.date, t.vice, t.goal, t.version
    FROM unnest(p_dates, p_vice, p_goals, p_versions) WITH ORDINALITY AS t(date, vice, goal, version, ord)
    WHERE t.date BETWEEN -719162 AND 2932896 AND t.date >= coalesce(v_first, t.date)
        AND t.date <= coalesce(v_last, t.date)
        AND t.vice BETWEEN 0 AND 1440 AND t.goal BETWEEN 0 AND 96 AND t.version BETWEEN 1 AND 9007199254740992
    ORDER BY t.date, t.version DESC, t.ord
    ON CONFLICT (code, user_id, date) DO UPDATE SET
        vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks, version = excluded.version
    WHERE excluded.version > day_total.version;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count > 0 THEN
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN true;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.upsert_day_totals TO PUBLIC
;
