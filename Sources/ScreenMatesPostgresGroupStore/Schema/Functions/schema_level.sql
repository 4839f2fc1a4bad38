-- The schema's level and the oldest client level it serves: the first question of every client
-- (PostgresSchemaMigrator).
CREATE FUNCTION screenmates.schema_level() RETURNS TABLE (version integer, compatible_from integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
    SELECT m.version, m.compatible_from FROM screenmates.schema_migration m ORDER BY m.version DESC LIMIT 1
$$
;

GRANT EXECUTE ON FUNCTION screenmates.schema_level TO PUBLIC
;
