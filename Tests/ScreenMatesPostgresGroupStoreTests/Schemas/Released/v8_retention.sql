-- The group store's eighth schema on PostgreSQL: a group keeps only the day totals a screen or the
-- settlement can still ask for. Applied once, in one transaction, by the program itself.
-- Statements are separated by a line holding only `;`.
--
-- Day totals were kept for ever: a 50-member group writes about 18,000 a year, every one of them
-- in the group's index. No screen shows a period longer than this month (the leaderboard's week
-- and month, `group show`), and the weekly settlement reads a week's days only until the week's
-- result is final. So once a day (by the day the settling member names, never later than the
-- server's own), `settle_weeks` takes away, after settling, the group's day totals before the
-- first day of the previous month, except the days of a member's week whose result is still
-- pending: those wait for the missing days and are counted again when they come
-- (GroupStoreRules.retainedFrom says the same for the shared file). A day total that arrives late,
-- older than that, is kept until the next day's turn. Failed attempts were already kept a day.
--
-- Nothing a reader sees changes, so no removal is marked: a day total goes otherwise only with
-- its member, whose removal is (`member_removal`), and the day totals' own removal trigger is
-- dropped. `settle_weeks` keeps its arguments and answers: clients of the third schema on keep
-- working (compatible_from stays 3).

-- The day (a day number) a group's day totals were last taken away on; NULL before the first.
ALTER TABLE screenmates.group_info ADD COLUMN retained_on bigint
;

DROP TRIGGER day_total_removal ON screenmates.day_total
;

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

-- The third schema's settlement, under a name of its own and granted to no one: `settle_weeks`
-- below calls it, then keeps the group's day totals to what is still asked for.
ALTER FUNCTION screenmates.settle_weeks(text, text, text, bigint, bigint) RENAME TO settle_closed_weeks
;

REVOKE ALL ON FUNCTION screenmates.settle_closed_weeks FROM PUBLIC
;

-- Settles as the third schema's did (the same checks, refusals and answers), then, for a member
-- of the group, keeps its day totals to what is still asked for on the settling member's day,
-- never later than the server's (UTC+14).
CREATE FUNCTION screenmates.settle_weeks(p_user text, p_secret text, p_code text, p_today bigint, p_now bigint)
RETURNS TABLE (known boolean, settled bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_known boolean;
    v_settled bigint;
BEGIN
    SELECT s.known, s.settled INTO v_known, v_settled
        FROM screenmates.settle_closed_weeks(p_user, p_secret, p_code, p_today, p_now) s;
    IF v_known THEN
        PERFORM screenmates.retain_day_totals(p_code,
            least(p_today, floor((extract(epoch FROM clock_timestamp()) + 50400) / 86400)::bigint));
    END IF;
    RETURN QUERY SELECT v_known, v_settled;
END $$
;

REVOKE ALL ON FUNCTION screenmates.retain_day_totals, screenmates.settle_weeks FROM PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.settle_weeks TO PUBLIC
;
