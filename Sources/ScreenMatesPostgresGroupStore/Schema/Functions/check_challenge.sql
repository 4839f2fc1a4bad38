-- A challenge as every client checks it (GroupStoreRules.check), as `create_group_challenge` checks
-- a group's: an id, a rule the judge reads, a span, coins, a first day today or within a year.
CREATE FUNCTION screenmates.check_challenge(
    p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint, p_penalty bigint, p_starts_at bigint
) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
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
END $$
;
