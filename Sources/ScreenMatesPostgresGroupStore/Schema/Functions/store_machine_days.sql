-- Stores one machine's day totals (with its productive blocks, when it says them: NULL, or none
-- for a date, keeps them unsaid) and recomputes the member's sums for the dates they changed:
-- for each date, the machine's total with the highest version (the first of equal ones) replaces
-- its stored one only when newer; the member's `day_total` is the sum of their machines' blocks
-- (capped at a day's 1,440), the highest goal and the highest version, written only when it
-- differs, so a total sent again, in any order, from any machine, stamps nothing. Days are the
-- member's from the day they joined (on the server's clock) to a day that is today somewhere;
-- others are left out. The caller holds the group's row and the machine's locked. Answers how many
-- of the member's sums changed.
CREATE FUNCTION screenmates.store_machine_days(
    p_code text, p_user text, p_machine text, p_dates bigint[], p_vice bigint[], p_goals bigint[],
    p_versions bigint[], p_productive bigint[]
) RETURNS bigint
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_first bigint;
    v_last bigint := screenmates.last_possible_today();
    v_dates bigint[];
    v_count bigint;
BEGIN
    IF NOT screenmates.members_choose_clock() THEN
        SELECT screenmates.day_of(m.joined_at) - 2 INTO v_first FROM screenmates.member m
            WHERE m.code = p_code AND m.user_id = p_user;
    END IF;
    WITH written AS (
        INSERT INTO screenmates.machine_day_total AS t (code, user_id, date, machine_id, vice_blocks, goal_blocks,
            version, productive_blocks)
        SELECT DISTINCT ON (x.date) p_code, p_user, x.date, p_machine, x.vice, x.goal, x.version, x.productive
        FROM unnest(p_dates, p_vice, p_goals, p_versions, coalesce(p_productive, '{}'::bigint[])) WITH ORDINALITY
            AS x(date, vice, goal, version, productive, ord)
        WHERE x.date BETWEEN -719162 AND 2932896 AND x.date >= coalesce(v_first, x.date)
            AND x.date <= coalesce(v_last, x.date)
            AND x.vice BETWEEN 0 AND 1440 AND x.goal BETWEEN 0 AND 96 AND x.version BETWEEN 1 AND 9007199254740992
            AND (x.productive IS NULL OR x.productive BETWEEN 0 AND 1440)
        ORDER BY x.date, x.version DESC, x.ord
        ON CONFLICT (code, user_id, date, machine_id) DO UPDATE SET
            vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks, version = excluded.version,
            productive_blocks = excluded.productive_blocks
        WHERE excluded.version > t.version
        RETURNING t.date
    )
    SELECT array_agg(w.date) INTO v_dates FROM written w;
    IF v_dates IS NULL THEN
        RETURN 0;
    END IF;
    INSERT INTO screenmates.day_total AS d (code, user_id, date, vice_blocks, goal_blocks, version)
    SELECT p_code, p_user, t.date, least(sum(t.vice_blocks), 1440)::bigint, max(t.goal_blocks), max(t.version)
    FROM screenmates.machine_day_total t
    WHERE t.code = p_code AND t.user_id = p_user AND t.date = ANY (v_dates)
    GROUP BY t.date
    ON CONFLICT (code, user_id, date) DO UPDATE SET
        vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks, version = excluded.version
    WHERE (d.vice_blocks, d.goal_blocks, d.version)
        IS DISTINCT FROM (excluded.vice_blocks, excluded.goal_blocks, excluded.version);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
END $$
;
