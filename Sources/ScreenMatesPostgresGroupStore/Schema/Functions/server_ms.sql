-- The server's instant in milliseconds.
CREATE FUNCTION screenmates.server_ms() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = screenmates, pg_temp AS $$
    SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint
$$
;
