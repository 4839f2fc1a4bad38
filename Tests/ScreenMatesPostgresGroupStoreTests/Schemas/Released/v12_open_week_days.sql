-- The group store's twelfth schema on PostgreSQL: a day total in a week no settlement has closed does
-- not call for another settlement. Applied once, in one transaction, by the program itself.
-- Statements are separated by a line holding only `;`.
--
-- The tenth schema stamps `settle_seq` at every day total written, and a dashboard settles after
-- sending its finished days: so on every day of the week each member's finished day made the
-- group settle again, though yesterday is in the week still open on six days of seven and a
-- settlement counts closed weeks only (the days before the first day of the week holding the day
-- it settles for). Measured at 5,000 members through PgBouncer, 2,056 of 9,875 calls of
-- `settle_weeks` settled in full, at 5.6 ms each, and every one of them found nothing to change.
--
-- A settlement for a day counts only days before the first day of that day's week; the last one
-- settled for `settled_on`, and a later call that may answer at once settles for that day or an
-- earlier one. So a day total dated on or after the first day of the week holding `settled_on`
-- is in no week such a settlement counts: it leaves `settle_seq` as it is. Any other day total
-- (a closed week's, a pending week's missing day, or any day before a group's first settlement)
-- stamps it as before; members joining or leaving and the rules stamp it as before. A day total
-- written while a settlement holds the group's row waits for it, then compares with the day that
-- settlement recorded. `settle_weeks` keeps its arguments and answers: clients of the third
-- schema on keep working (compatible_from stays 3).

CREATE FUNCTION screenmates.stamp_day_total_settlement() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_date bigint := NEW.date;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        v_date := least(OLD.date, NEW.date);
    END IF;
    UPDATE screenmates.group_info g SET settle_seq = g.change_seq + 1
        WHERE g.code = NEW.code AND g.settle_seq <> g.change_seq + 1
            AND (g.settled_on IS NULL OR v_date < screenmates.week_first_day(g.settled_on, g.week_start));
    RETURN NULL;
END $$
;

REVOKE ALL ON FUNCTION screenmates.stamp_day_total_settlement FROM PUBLIC
;

DROP TRIGGER day_total_settlement ON screenmates.day_total
;

CREATE TRIGGER day_total_settlement AFTER INSERT OR UPDATE ON screenmates.day_total
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_day_total_settlement()
;
