-- Takes away the group's day totals no read asks for any more (the member's sums and their
-- machines' alike): those before `retained_from`, except the
-- days of a member's week still pending, which the settlement counts again when its missing days
-- come. Nothing a reader sees changes, so no removal is marked. Called by `settle_weeks` with the
-- group's row locked, at every settlement that does any work (most calls find nothing changed and
-- answer before); granted to no one.
CREATE FUNCTION screenmates.retain_day_totals(p_code text, p_today bigint) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_from bigint := screenmates.retained_from(p_today);
BEGIN
    DELETE FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date < v_from AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result r
            WHERE r.code = p_code AND r.user_id = d.user_id AND r.status = 'pending'
                AND d.date BETWEEN r.week AND r.week + 6);
    DELETE FROM screenmates.machine_day_total d
        WHERE d.code = p_code AND d.date < v_from AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result r
            WHERE r.code = p_code AND r.user_id = d.user_id AND r.status = 'pending'
                AND d.date BETWEEN r.week AND r.week + 6);
    -- A removed machine none of whose days is kept any more, and whose today is over, is let go:
    -- it no longer counts against its member's machines kept.
    DELETE FROM screenmates.machine c
        WHERE c.user_id IN (SELECT m.user_id FROM screenmates.member m WHERE m.code = p_code)
            AND c.retired_at IS NOT NULL AND coalesce(c.day, p_today - 2) < p_today - 1
            AND NOT EXISTS (SELECT 1 FROM screenmates.machine_day_total t
                WHERE t.user_id = c.user_id AND t.machine_id = c.machine_id);
END $$
;
