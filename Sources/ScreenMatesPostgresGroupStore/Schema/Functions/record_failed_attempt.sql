-- Writes a wrong code down, for the id and the login; attempts older than a day (anyone's) are
-- purged on the way.
CREATE FUNCTION screenmates.record_failed_attempt(p_user text, p_now bigint) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    DELETE FROM screenmates.failed_attempt f WHERE f.logged_at < clock_timestamp() - interval '1 day';
    INSERT INTO screenmates.failed_attempt (user_id, at, role_name) VALUES (p_user, p_now, session_user);
END $$
;
