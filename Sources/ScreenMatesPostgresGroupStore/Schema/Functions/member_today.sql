-- A member's today as every reader sees it: the newest day any of their machines reported, and
-- the blocks of every machine on that day added up (capped at a day's 1,440). A machine still on
-- an older day adds nothing; a removed one still counts what it used.
CREATE FUNCTION screenmates.member_today(p_user text, OUT day bigint, OUT blocks bigint)
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT x.day, least(coalesce(sum(c.blocks_today) FILTER (WHERE c.day = x.day), 0), 1440)::bigint
    FROM (SELECT max(m.day) AS day FROM screenmates.machine m WHERE m.user_id = p_user) x
    LEFT JOIN screenmates.machine c ON c.user_id = p_user
    GROUP BY x.day
$$
;
