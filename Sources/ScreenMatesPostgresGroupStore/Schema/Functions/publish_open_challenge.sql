-- outcome: 'published', 'exists' (an open challenge has the id). Only the store's owner may
-- (SMOWN); the challenge is checked as a group's is.
CREATE FUNCTION screenmates.publish_open_challenge(
    p_user text, p_secret text, p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint,
    p_penalty bigint, p_starts_at bigint, p_now bigint
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
BEGIN
    IF NOT screenmates.caller_owns_store() THEN
        RAISE EXCEPTION USING ERRCODE = 'SMOWN',
            MESSAGE = 'Only the group store''s owner may publish a challenge open to all.';
    END IF;
    PERFORM screenmates.check_challenge(p_id, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at);
    LOCK TABLE screenmates.open_challenge IN SHARE ROW EXCLUSIVE MODE;
    IF (SELECT count(*) FROM screenmates.open_challenge c WHERE c.first_day + c.days > screenmates.day_of(v_at))
        >= (screenmates.policy()).open_challenges_running
    THEN
        PERFORM screenmates.quota('The store has as many open challenges running as it allows; let one end first.');
    END IF;
    INSERT INTO screenmates.open_challenge (
        id, published_by, rule, first_day, days, reward, penalty, starts_at, published_at)
    VALUES (p_id, v_user, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at, v_at)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'exists';
    END IF;
    PERFORM nextval('screenmates.open_change_seq');
    RETURN 'published';
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.publish_open_challenge TO PUBLIC
;
