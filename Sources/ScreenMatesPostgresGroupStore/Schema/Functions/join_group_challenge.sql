-- outcome: 'joined' (with the challenge), 'unknown' (code), 'no-challenge', 'closed' (its first
-- day is over for the member, whose today must be today somewhere by the server's clock). A member
-- is in at most `challenges_joined_per_member` of the challenges the group keeps, and a challenge
-- has at most `participants_per_challenge`.
CREATE FUNCTION screenmates.join_group_challenge(
    p_user text, p_secret text, p_code text, p_id text, p_today bigint, p_now bigint
) RETURNS TABLE (outcome text, creator_id text, rule text, first_day bigint, days bigint, reward bigint,
    penalty bigint, starts_at bigint, created_at bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_challenge screenmates.group_challenge%ROWTYPE;
    v_outcome text := 'joined';
BEGIN
    PERFORM screenmates.check_today(p_today);
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        v_outcome := 'unknown';
    ELSE
        SELECT * INTO v_challenge FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id;
        IF NOT FOUND THEN
            v_outcome := 'no-challenge';
        ELSIF NOT EXISTS (
            SELECT 1 FROM screenmates.challenge_participant p
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user
        ) THEN
            IF p_today > v_challenge.first_day THEN
                v_outcome := 'closed';
            ELSIF (SELECT count(*) FROM screenmates.challenge_participant p
                JOIN screenmates.group_challenge c ON c.code = p.code AND c.id = p.challenge_id
                WHERE p.code = p_code AND p.user_id = v_user
                    AND c.first_day + c.days > screenmates.retained_from(screenmates.day_of(v_at)))
                >= (screenmates.policy()).challenges_joined_per_member
            THEN
                PERFORM screenmates.quota('You are in as many of the group''s challenges as the store allows; let one end first.');
            ELSIF (SELECT count(*) FROM screenmates.challenge_participant p
                WHERE p.code = p_code AND p.challenge_id = p_id) >= (screenmates.policy()).participants_per_challenge
            THEN
                PERFORM screenmates.quota('This challenge has as many participants as the store allows.');
            ELSE
                INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
                    VALUES (p_code, p_id, v_user, 'in', 0, v_at);
                PERFORM screenmates.touch(p_code);
            END IF;
        END IF;
    END IF;
    RETURN QUERY SELECT v_outcome, v_challenge.creator_id::text, v_challenge.rule, v_challenge.first_day,
        v_challenge.days, v_challenge.reward, v_challenge.penalty, v_challenge.starts_at, v_challenge.created_at;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.join_group_challenge TO PUBLIC
;
