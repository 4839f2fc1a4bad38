-- outcome: 'found' (with the group), 'unknown' (written down as a wrong code) or 'limited' (with
-- the seconds to wait; not written down).
CREATE FUNCTION screenmates.find_group(p_user text, p_secret text, p_code text, p_now bigint)
RETURNS TABLE (outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint,
    created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_wait bigint;
BEGIN
    v_wait := screenmates.retry_after(v_user, v_at);
    IF v_wait IS NOT NULL THEN
        RETURN QUERY SELECT 'limited'::text, v_wait, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
    IF NOT FOUND THEN
        PERFORM screenmates.record_failed_attempt(v_user, v_at);
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
    END IF;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.find_group TO PUBLIC
;
