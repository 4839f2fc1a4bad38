-- The days a member's "today" may be on the server's clock: from UTC−12 with a day starting
-- as late as the morning, to UTC+14. NULL bounds when members choose their clock.
CREATE FUNCTION screenmates.first_possible_today() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() THEN NULL
        ELSE floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint - 2 END
$$
;
