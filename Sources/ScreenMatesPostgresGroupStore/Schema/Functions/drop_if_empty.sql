-- A group whose last member left goes, with everything in it.
CREATE FUNCTION screenmates.drop_if_empty(p_code text) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code) THEN
        DELETE FROM screenmates.group_challenge c WHERE c.code = p_code;
        DELETE FROM screenmates.group_info g WHERE g.code = p_code;
    END IF;
END $$
;
