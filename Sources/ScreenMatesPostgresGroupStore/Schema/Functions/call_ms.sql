-- The instant a call happens at: the member's when the store lets members choose their clock
-- (and it is one every client keeps: the rate limit subtracts from it), else the server's.
CREATE FUNCTION screenmates.call_ms(p_now bigint) RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() AND screenmates.is_instant(p_now) THEN p_now
        ELSE screenmates.server_ms() END
$$
;
