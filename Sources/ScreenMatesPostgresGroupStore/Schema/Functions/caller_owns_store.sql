-- Whether the caller owns the schema (or is a superuser): the one role trusted with everything,
-- since it can change every table anyway.
CREATE FUNCTION screenmates.caller_owns_store() RETURNS boolean
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT coalesce((SELECT pg_has_role(session_user, n.nspowner, 'MEMBER')
        FROM pg_namespace n WHERE n.nspname = 'screenmates'), false)
$$
;
