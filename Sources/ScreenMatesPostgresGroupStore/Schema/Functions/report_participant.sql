-- outcome: 'stored', 'unchanged', 'unknown' (code), 'no-challenge', 'not-participant'. A decided
-- state stays as first reported; while still in, the days kept only grow, never past the days
-- the challenge has run (on the server's clock) nor its length; 'finished' only once it is over.
CREATE FUNCTION screenmates.report_participant(
    p_user text, p_secret text, p_code text, p_id text, p_state text, p_days bigint, p_decided_at bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_state text;
    v_days bigint;
    v_challenge screenmates.group_challenge%ROWTYPE;
    v_last bigint := screenmates.last_possible_today();
BEGIN
    IF p_state IS NULL OR p_state NOT IN ('in', 'finished', 'failed', 'forfeited') THEN
        PERFORM screenmates.refuse('A participant is in, finished, failed or forfeited.');
    END IF;
    IF p_days IS NULL OR p_days NOT BETWEEN 0 AND 365 THEN
        PERFORM screenmates.refuse('Days kept are 0 to 365.');
    END IF;
    IF p_decided_at IS NOT NULL AND NOT screenmates.is_instant(p_decided_at) THEN
        PERFORM screenmates.refuse('A participant''s decision time must be a real instant.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
    END IF;
    SELECT * INTO v_challenge FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id;
    IF NOT FOUND THEN
        RETURN 'no-challenge';
    END IF;
    SELECT p.state, p.days_kept INTO v_state, v_days FROM screenmates.challenge_participant p
        WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    IF NOT FOUND THEN
        RETURN 'not-participant';
    END IF;
    IF p_days > v_challenge.days OR (v_last IS NOT NULL AND p_days > greatest(v_last - v_challenge.first_day + 1, 0)) THEN
        PERFORM screenmates.refuse('More days kept than the challenge has run.');
    END IF;
    IF p_state = 'finished' AND v_last IS NOT NULL AND v_last < v_challenge.first_day + v_challenge.days - 1 THEN
        PERFORM screenmates.refuse('A challenge is finished only once its last day has come.');
    END IF;
    IF v_state <> 'in' OR (p_state = 'in' AND p_days <= v_days) THEN
        RETURN 'unchanged';
    END IF;
    IF p_state = 'in' THEN
        UPDATE screenmates.challenge_participant p SET days_kept = p_days
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    ELSE
        UPDATE screenmates.challenge_participant p
            SET state = p_state, days_kept = p_days, decided_at = p_decided_at
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    END IF;
    PERFORM screenmates.touch(p_code);
    RETURN 'stored';
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.report_participant TO PUBLIC
;
