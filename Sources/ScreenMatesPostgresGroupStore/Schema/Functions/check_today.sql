-- A member's day ("today" for a profile, a day of a challenge): a date every client keeps, and
-- on the server's clock a day that is today somewhere on Earth.
CREATE FUNCTION screenmates.check_today(p_day bigint) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_today bigint;
BEGIN
    IF p_day IS NULL OR p_day NOT BETWEEN -719162 AND 2932896 THEN
        PERFORM screenmates.refuse('A date is in the years 1 to 9999.');
    END IF;
    IF NOT screenmates.members_choose_clock() THEN
        v_today := floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint;
        IF p_day NOT BETWEEN v_today - 2 AND v_today + 1 THEN
            PERFORM screenmates.refuse(
                'That day is not today anywhere by the group store''s clock; check this machine''s clock.');
        END IF;
    END IF;
END $$
;
