-- Stored only with a newer version; moves the change mark of each of the caller's groups.
CREATE FUNCTION screenmates.report_standing(
    p_user text, p_secret text, p_name text, p_coins bigint, p_badges bigint, p_public boolean, p_version bigint,
    p_now bigint
) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_codes text[];
    v_code text;
BEGIN
    PERFORM screenmates.name_key(p_name);
    IF p_coins IS NULL OR p_badges IS NULL OR p_coins NOT BETWEEN 0 AND 1000000000 OR p_badges NOT BETWEEN 0 AND 1000 THEN
        PERFORM screenmates.refuse('Coins are 0 to 10^9 and badges 0 to 1000.');
    END IF;
    IF p_public IS NULL OR NOT screenmates.is_instant(p_now) THEN
        PERFORM screenmates.refuse('A standing says whether it is public and when it was made.');
    END IF;
    PERFORM screenmates.check_version(p_version);
    v_codes := screenmates.lock_my_groups(v_user);
    INSERT INTO screenmates.coin_standing AS s (user_id, display_name, coins, badges, is_public, version, updated_at)
        VALUES (v_user, p_name, p_coins, p_badges, p_public, p_version, screenmates.call_ms(p_now))
        ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, coins = excluded.coins,
            badges = excluded.badges, is_public = excluded.is_public, version = excluded.version,
            updated_at = excluded.updated_at
        WHERE excluded.version > s.version;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    FOREACH v_code IN ARRAY v_codes LOOP
        PERFORM screenmates.touch(v_code);
    END LOOP;
    RETURN true;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.report_standing TO PUBLIC
;
