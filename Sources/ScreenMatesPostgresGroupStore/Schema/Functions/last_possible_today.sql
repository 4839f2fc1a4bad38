-- The last day a member's "today" may be on the server's clock (UTC+14); NULL when members choose
-- their clock. `first_possible_today` is the first.
CREATE FUNCTION screenmates.last_possible_today() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() THEN NULL
        ELSE floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint + 1 END
$$
;
