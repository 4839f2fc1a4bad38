-- Takes away the group's challenges that ended before `retained_from` (the month before
-- `p_today`'s), with their participants: every member's part in them was decided by then, and the
-- group's quota of challenges (`challenges_per_group`) counts those it keeps. Their removals are
-- marked (the caller moves the group's change number when any went), so every reader drops
-- them; answers how many went. Called by `settle_weeks` with the group's row locked;
-- granted to no one. SQLiteGroupStore.retainChallenges says the same for the shared file.
CREATE FUNCTION screenmates.retain_challenges(p_code text, p_today bigint) RETURNS bigint
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_from bigint := screenmates.retained_from(p_today);
    v_removed bigint;
BEGIN
    DELETE FROM screenmates.challenge_participant p
        USING screenmates.group_challenge c
        WHERE p.code = p_code AND c.code = p_code AND c.id = p.challenge_id AND c.first_day + c.days <= v_from;
    DELETE FROM screenmates.group_challenge c WHERE c.code = p_code AND c.first_day + c.days <= v_from;
    GET DIAGNOSTICS v_removed = ROW_COUNT;
    RETURN v_removed;
END $$
;
