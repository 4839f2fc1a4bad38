-- The store's policy: its one row of quotas and settings, chosen by the store's owner.
CREATE FUNCTION screenmates.policy() RETURNS screenmates.store_policy
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT p FROM screenmates.store_policy p
$$
;
