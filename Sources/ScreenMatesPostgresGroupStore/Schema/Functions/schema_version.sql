-- The first level's question of the schema's level. Clients from before `schema_level` use a schema
-- whose version equals their own and refuse a higher one: to them this answers the oldest level the
-- schema still serves.
CREATE FUNCTION screenmates.schema_version() RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
    SELECT coalesce(
        (SELECT m.compatible_from FROM screenmates.schema_migration m ORDER BY m.version DESC LIMIT 1), 0)
$$
;

GRANT EXECUTE ON FUNCTION screenmates.schema_version TO PUBLIC
;
