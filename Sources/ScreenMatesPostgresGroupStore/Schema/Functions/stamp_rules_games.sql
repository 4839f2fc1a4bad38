-- The settlement rules are the group's own columns: a change to them is a change of the games.
CREATE FUNCTION screenmates.stamp_rules_games() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    NEW.games_seq := OLD.change_seq + 1;
    RETURN NEW;
END $$
;

CREATE TRIGGER group_rules_games BEFORE UPDATE OF week_start, kept_day_coins, over_day_coins, missing_days,
    settle_from ON screenmates.group_info
    FOR EACH ROW WHEN (
        OLD.week_start IS DISTINCT FROM NEW.week_start OR OLD.kept_day_coins IS DISTINCT FROM NEW.kept_day_coins
        OR OLD.over_day_coins IS DISTINCT FROM NEW.over_day_coins
        OR OLD.missing_days IS DISTINCT FROM NEW.missing_days OR OLD.settle_from IS DISTINCT FROM NEW.settle_from)
    EXECUTE FUNCTION screenmates.stamp_rules_games()
;
