-- outcome: 'created', 'unknown' (code), 'exists' (id taken in the group). The rule is checked as
-- the clients judge it; the store's quotas bound the challenges of a group still running, all
-- those it keeps (whatever their days: `retain_challenges` takes away the old ones), and the new
-- ones a member shares in a day.
CREATE FUNCTION screenmates.create_group_challenge(
    p_user text, p_secret text, p_code text, p_id text, p_rule text, p_first_day bigint, p_days bigint,
    p_reward bigint, p_penalty bigint, p_starts_at bigint, p_now bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
BEGIN
    IF p_id IS NULL OR p_id !~ '^[a-z0-9]{4,16}$' THEN
        PERFORM screenmates.refuse('A challenge id has 4–16 lower-case letters and digits.');
    END IF;
    PERFORM screenmates.check_rule(p_rule);
    IF p_days IS NULL OR p_days NOT BETWEEN 1 AND 365 THEN
        PERFORM screenmates.refuse('A challenge lasts 1 to 365 days.');
    END IF;
    IF p_reward IS NULL OR p_penalty IS NULL OR p_reward NOT BETWEEN 0 AND 10000 OR p_penalty NOT BETWEEN 0 AND 10000 THEN
        PERFORM screenmates.refuse('A reward or penalty is 0 to 10000 coins.');
    END IF;
    IF p_first_day IS NULL OR p_first_day NOT BETWEEN -719162 AND 2932896 - 365
        OR p_first_day < screenmates.first_possible_today() OR p_first_day > screenmates.last_possible_today() + 366
    THEN
        PERFORM screenmates.refuse('A challenge begins today or within a year.');
    END IF;
    IF p_starts_at IS NOT NULL AND NOT screenmates.is_instant(p_starts_at) THEN
        PERFORM screenmates.refuse('A challenge''s start must be a real instant.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.first_day + c.days > screenmates.day_of(v_at))
        >= (screenmates.policy()).running_challenges_per_group
    THEN
        PERFORM screenmates.quota('The group has as many challenges running as the store allows; let one end first.');
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.first_day + c.days > screenmates.retained_from(screenmates.day_of(v_at)))
        >= (screenmates.policy()).challenges_per_group
    THEN
        PERFORM screenmates.quota('The group holds as many challenges as the store allows; ended ones go after a month or two.');
    END IF;
    IF (SELECT count(*) FROM screenmates.challenge_participant p
        JOIN screenmates.group_challenge c ON c.code = p.code AND c.id = p.challenge_id
        WHERE p.code = p_code AND p.user_id = v_user
            AND c.first_day + c.days > screenmates.retained_from(screenmates.day_of(v_at)))
        >= (screenmates.policy()).challenges_joined_per_member
    THEN
        PERFORM screenmates.quota('You are in as many of the group''s challenges as the store allows; let one end first.');
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.creator_id = v_user AND c.created_on > clock_timestamp() - interval '1 day')
        >= (screenmates.policy()).challenges_shared_per_day
    THEN
        PERFORM screenmates.quota('You have shared as many challenges today as the store allows; try again tomorrow.');
    END IF;
    INSERT INTO screenmates.group_challenge (
        code, id, creator_id, rule, first_day, days, reward, penalty, starts_at, created_at)
    VALUES (p_code, p_id, v_user, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at, v_at)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'exists';
    END IF;
    INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
        VALUES (p_code, p_id, v_user, 'in', 0, v_at);
    PERFORM screenmates.touch(p_code);
    RETURN 'created';
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.create_group_challenge TO PUBLIC
;
