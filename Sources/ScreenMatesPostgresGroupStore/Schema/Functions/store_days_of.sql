-- What `upsert_day_totals` and `upsert_machine_days` do for their verified caller: the group's row
-- locked, then the machine's (`own_machine`), the totals stored (`store_machine_days`), and the
-- group's change number moved once when a sum changed. False for a code that names no group.
CREATE FUNCTION screenmates.store_days_of(
    p_user text, p_machine text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[],
    p_versions bigint[], p_productive bigint[]
) RETURNS boolean
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF greatest(cardinality(p_dates), cardinality(p_vice), cardinality(p_goals), cardinality(p_versions),
        cardinality(p_productive)) > 1000
    THEN
        PERFORM screenmates.refuse('At most 1000 day totals are sent at once.');
    END IF;
    PERFORM screenmates.check_machine(p_machine, NULL);
    IF NOT screenmates.lock_group(p_user, p_code) THEN
        RETURN false;
    END IF;
    PERFORM screenmates.own_machine(p_user, p_machine);
    IF screenmates.store_machine_days(p_code, p_user, p_machine, p_dates, p_vice, p_goals, p_versions,
        p_productive) > 0
    THEN
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN true;
END $$
;
