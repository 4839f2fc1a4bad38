-- A challenge's rule as the clients write it (GroupStoreRules.ruleText) and judge it
-- (Challenge.problem): at most GroupStoreRules.maximumRuleLength bytes of UTF-8, one of three kinds,
-- every number in range.
CREATE FUNCTION screenmates.check_rule(p_rule text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_rule jsonb;
    v_body jsonb;
    v_from integer;
    v_until integer;
    v_ok boolean := false;
BEGIN
    IF p_rule IS NULL OR octet_length(p_rule) NOT BETWEEN 1 AND 2000 THEN
        PERFORM screenmates.refuse('A challenge''s rule is missing or too long to share.');
    END IF;
    BEGIN
        v_rule := p_rule::jsonb;
        IF NOT screenmates.json_keys_unique(p_rule::json) THEN
            v_rule := NULL;
        END IF;
    EXCEPTION WHEN others THEN
        PERFORM screenmates.refuse('A challenge''s rule is not one ScreenMates writes.');
    END;
    IF screenmates.json_keys(v_rule) = ARRAY['streak'] THEN
        v_ok := v_rule -> 'streak' = '{}'::jsonb;
    ELSIF screenmates.json_keys(v_rule) = ARRAY['dailyBlocks'] THEN
        v_body := v_rule -> 'dailyBlocks';
        v_ok := screenmates.json_keys(v_body) = ARRAY['max', 'target']
            AND screenmates.json_count(v_body -> 'max', 96) IS NOT NULL
            AND screenmates.check_target(v_body -> 'target');
    ELSIF screenmates.json_keys(v_rule) = ARRAY['quietHours'] THEN
        v_body := v_rule -> 'quietHours';
        IF screenmates.json_keys(v_body) = ARRAY['from', 'target', 'until']
            AND screenmates.json_keys(v_body -> 'from') = ARRAY['minutes']
            AND screenmates.json_keys(v_body -> 'until') = ARRAY['minutes']
        THEN
            v_from := screenmates.json_count(v_body -> 'from' -> 'minutes', 1439);
            v_until := screenmates.json_count(v_body -> 'until' -> 'minutes', 1439);
            v_ok := v_from IS NOT NULL AND v_until IS NOT NULL AND v_from <> v_until
                AND screenmates.check_target(v_body -> 'target');
        END IF;
    END IF;
    IF NOT coalesce(v_ok, false) THEN
        PERFORM screenmates.refuse('A challenge''s rule is not one ScreenMates can judge.');
    END IF;
END $$
;
