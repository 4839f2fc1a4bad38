-- outcome: 'joined' (with the challenge), 'no-challenge', 'closed' (its first day is over for the
-- member, whose today must be today somewhere by the server's clock), 'name-taken' (someone on
-- the board goes by that name). The name is checked as every client checks it; the quota bounds
-- how many a member joins in a day.
CREATE FUNCTION screenmates.join_open_challenge(
    p_user text, p_secret text, p_id text, p_name text, p_today bigint, p_now bigint
) RETURNS TABLE (outcome text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint,
    starts_at bigint, published_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_key text := screenmates.name_key(p_name);
    v_challenge screenmates.open_challenge%ROWTYPE;
    v_outcome text := 'joined';
BEGIN
    PERFORM screenmates.check_today(p_today);
    -- The challenge's row locked: joins to one board take turns, so a name is checked and taken
    -- at once.
    SELECT * INTO v_challenge FROM screenmates.open_challenge c WHERE c.id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        v_outcome := 'no-challenge';
    ELSIF NOT EXISTS (
        SELECT 1 FROM screenmates.open_participant p WHERE p.challenge_id = p_id AND p.user_id = v_user
    ) THEN
        IF p_today > v_challenge.first_day THEN
            v_outcome := 'closed';
        ELSIF EXISTS (
            SELECT 1 FROM screenmates.open_participant p WHERE p.challenge_id = p_id AND p.name_key = v_key
        ) THEN
            v_outcome := 'name-taken';
        ELSE
            IF (SELECT count(*) FROM screenmates.open_participant p
                WHERE p.user_id = v_user AND p.joined_on > clock_timestamp() - interval '1 day')
                >= (screenmates.policy()).open_joins_per_member_per_day
            THEN
                PERFORM screenmates.quota(
                    'You have joined as many open challenges today as the store allows; try again tomorrow.');
            END IF;
            INSERT INTO screenmates.open_participant (
                challenge_id, user_id, display_name, name_key, state, days_kept, joined_at)
            VALUES (p_id, v_user, p_name, v_key, 'in', 0, v_at);
            PERFORM nextval('screenmates.open_change_seq');
        END IF;
    END IF;
    RETURN QUERY SELECT v_outcome, v_challenge.rule, v_challenge.first_day, v_challenge.days, v_challenge.reward,
        v_challenge.penalty, v_challenge.starts_at, v_challenge.published_at;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.join_open_challenge TO PUBLIC
;
