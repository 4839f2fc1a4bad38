-- The user's groups, their rows locked in code order (so two updates never wait on each other
-- crosswise). SMNOT carries the group the user joined last; SMNEW: never in a group here.
CREATE FUNCTION screenmates.lock_my_groups(p_user text) RETURNS text[]
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_codes text[] := '{}';
    v_code text;
    v_last text;
BEGIN
    FOR v_code IN
        SELECT g.code FROM screenmates.group_info g
        WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = p_user)
        ORDER BY g.code FOR UPDATE
    LOOP
        v_codes := v_codes || v_code;
    END LOOP;
    IF cardinality(v_codes) = 0 THEN
        SELECT l.code INTO v_last FROM screenmates.last_group l WHERE l.user_id = p_user;
        IF FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'SMNOT', MESSAGE = 'Not a member of the group.', DETAIL = v_last;
        END IF;
        RAISE EXCEPTION USING ERRCODE = 'SMNEW', MESSAGE = 'Not a member of any group.';
    END IF;
    RETURN v_codes;
END $$
;
