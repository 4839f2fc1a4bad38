-- The channel the group's changes are notified on; NULL for an unknown code.
CREATE FUNCTION screenmates.group_channel(p_user text, p_secret text, p_code text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.channel FROM screenmates.group_info g WHERE g.code = p_code);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.group_channel TO PUBLIC
;
