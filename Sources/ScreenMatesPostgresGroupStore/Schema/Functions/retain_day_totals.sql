-- Takes away the group's day totals no read asks for any more, at most once a day: before the first
-- day of the month before `p_today`'s, outside a member's pending week. Called by `settle_weeks`
-- with the group's row locked; granted to no one.
CREATE FUNCTION screenmates.retain_day_totals(p_code text, p_today bigint) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_from bigint := (date_trunc('month', date '1970-01-01' + p_today::integer) - interval '1 month')::date
        - date '1970-01-01';
BEGIN
    UPDATE screenmates.group_info g SET retained_on = p_today
        WHERE g.code = p_code AND (g.retained_on IS NULL OR g.retained_on < p_today);
    IF NOT FOUND THEN
        RETURN;
    END IF;
    DELETE FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date < v_from AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result r
            WHERE r.code = p_code AND r.user_id = d.user_id AND r.status = 'pending'
                AND d.date BETWEEN r.week AND r.week + 6);
END $$
;
