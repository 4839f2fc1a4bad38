-- What `group_changes_and_games_after` answers, without the games' row: the question of clients
-- from before the games' change number (levels 4 to 8), which keep working.
CREATE FUNCTION screenmates.group_changes_after(
    p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint,
    p_month_first bigint, p_month_last bigint
) RETURNS TABLE (kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint,
    last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint,
    goal_blocks bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY SELECT * FROM screenmates.group_changes_and_games_after(
        p_user, p_secret, p_code, p_after, p_week_first, p_week_last, p_month_first, p_month_last) r
        WHERE r.kind <> 'games';
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.group_changes_after TO PUBLIC
;
