-- Whether the store takes the instants and days members send as they are (a store for demos and
-- tests) instead of holding them to the server's clock (the default; `store_policy`).
CREATE FUNCTION screenmates.members_choose_clock() RETURNS boolean
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT coalesce((SELECT p.members_choose_clock FROM screenmates.store_policy p), false)
$$
;
