-- Seconds until the member may try a code again, or NULL: after 5 wrong codes within 10 minutes
-- (GroupStoreRules) on the clock in use, or 20 within an hour on the server's clock; or after
-- `wrong_codes_per_login_per_hour` by all the ids of the caller's login, unless the owner lists the
-- login as shared by several members (`shared_login`: one of them must not lock the others out).
CREATE FUNCTION screenmates.retry_after(p_user text, p_now bigint) RETURNS bigint
LANGUAGE plpgsql STABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_recent bigint[];
    v_logged timestamptz[];
    v_count integer;
    v_limit integer;
BEGIN
    SELECT coalesce(array_agg(f.at ORDER BY f.at), '{}') INTO v_recent FROM screenmates.failed_attempt f
        WHERE f.user_id = p_user AND f.at > p_now - 600000 AND f.at <= p_now;
    v_count := cardinality(v_recent);
    IF v_count >= 5 THEN
        RETURN least(greatest(ceil((v_recent[v_count - 4] + 600000 - p_now) / 1000.0), 1), 600)::bigint;
    END IF;
    SELECT coalesce(array_agg(f.logged_at ORDER BY f.logged_at), '{}') INTO v_logged FROM screenmates.failed_attempt f
        WHERE f.user_id = p_user AND f.logged_at > clock_timestamp() - interval '1 hour';
    v_count := cardinality(v_logged);
    IF v_count >= 20 THEN
        RETURN least(greatest(ceil(extract(epoch FROM
            v_logged[v_count - 19] + interval '1 hour' - clock_timestamp())), 1), 3600)::bigint;
    END IF;
    IF screenmates.caller_owns_store()
        OR EXISTS (SELECT 1 FROM screenmates.shared_login s WHERE s.role_name = session_user)
    THEN
        RETURN NULL;
    END IF;
    v_limit := (screenmates.policy()).wrong_codes_per_login_per_hour;
    SELECT coalesce(array_agg(f.logged_at ORDER BY f.logged_at), '{}') INTO v_logged FROM screenmates.failed_attempt f
        WHERE f.role_name = session_user AND f.logged_at > clock_timestamp() - interval '1 hour';
    v_count := cardinality(v_logged);
    IF v_count >= v_limit THEN
        RETURN least(greatest(ceil(extract(epoch FROM
            v_logged[v_count - v_limit + 1] + interval '1 hour' - clock_timestamp())), 1), 3600)::bigint;
    END IF;
    RETURN NULL;
END $$
;
