-- A challenge's target: every vice app, or one app by an id the clients take (`is_app_id`).
CREATE FUNCTION screenmates.check_target(p_target jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_app text;
BEGIN
    IF p_target = '{"allVice": {}}'::jsonb THEN
        RETURN true;
    END IF;
    IF screenmates.json_keys(p_target) IS DISTINCT FROM ARRAY['app']
        OR screenmates.json_keys(p_target -> 'app') IS DISTINCT FROM ARRAY['_0']
        OR jsonb_typeof(p_target -> 'app' -> '_0') <> 'string'
    THEN
        RETURN false;
    END IF;
    v_app := p_target -> 'app' ->> '_0';
    RETURN screenmates.is_app_id(v_app);
END $$
;
