-- A challenge's target: every vice app, or one app by an id without control, format or bidi
-- characters.
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
    RETURN char_length(v_app) BETWEEN 1 AND 64 AND v_app !~ '[[:cntrl:]]'
        AND v_app !~ '[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]';
END $$
;
