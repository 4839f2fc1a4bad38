-- A day total that can change a settlement moves the group's `settle_seq`. A settlement for a day
-- counts only days before the first day of that day's week, and a call that may answer at once
-- settles for `settled_on` or an earlier day: so a day total dated on or after the first day of
-- the week holding `settled_on` is in no week such a settlement counts and leaves it as it is. Any
-- other (a closed week's, a pending week's missing day, any day before a group's first
-- settlement) stamps it. A day total taken away goes with its member (stamped by
-- `stamp_settlement`) or because no settlement asks for it any more: neither changes a settlement.
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

CREATE TRIGGER day_total_settlement AFTER INSERT OR UPDATE ON screenmates.day_total
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_day_total_settlement()
;
