-- Removes every row of the caller's: memberships (with their day totals, their machines' days,
-- challenge parts and week results), their machines, coins and ranking entry, failed attempts, the
-- identity itself; groups left empty go. Returns how many groups the caller left.
CREATE FUNCTION screenmates.delete_account(p_user text, p_secret text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_codes text[];
    v_code text;
BEGIN
    SELECT coalesce(array_agg(g.code ORDER BY g.code), '{}') INTO v_codes FROM screenmates.group_info g
        WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = v_user);
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = ANY (v_codes) ORDER BY g.code FOR UPDATE;
    DELETE FROM screenmates.member m WHERE m.user_id = v_user;
    FOREACH v_code IN ARRAY v_codes LOOP
        PERFORM screenmates.touch(v_code);
        PERFORM screenmates.drop_if_empty(v_code);
    END LOOP;
    UPDATE screenmates.group_challenge c SET creator_id = '-' WHERE c.creator_id = v_user;
    UPDATE screenmates.group_info g SET created_by = NULL WHERE g.created_by = v_user;
    DELETE FROM screenmates.machine c WHERE c.user_id = v_user;
    DELETE FROM screenmates.coin_standing s WHERE s.user_id = v_user;
    DELETE FROM screenmates.last_group l WHERE l.user_id = v_user;
    DELETE FROM screenmates.failed_attempt f WHERE f.user_id = v_user;
    DELETE FROM screenmates.identity d WHERE d.user_id = v_user;
    RETURN cardinality(v_codes);
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.delete_account TO PUBLIC
;
