-- Makes the calls of one login take turns until the transaction ends, for a count of what the
-- login made and the insert that follows it (new ids, claims): without the turn, parallel calls
-- each count the same and each insert.
CREATE FUNCTION screenmates.lock_login() RETURNS void
LANGUAGE sql SET search_path = screenmates, pg_temp AS $$
    SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('screenmates login ' || session_user, 0))
$$
;
