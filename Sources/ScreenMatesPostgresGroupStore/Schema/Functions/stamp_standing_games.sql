-- A member's standing (coins, badges, a public ranking) shows in every group they are in.
CREATE FUNCTION screenmates.stamp_standing_games() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.group_info g SET games_seq = g.change_seq + 1
        FROM screenmates.member m
        WHERE m.user_id = NEW.user_id AND g.code = m.code AND g.games_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

CREATE TRIGGER coin_standing_games AFTER INSERT OR UPDATE ON screenmates.coin_standing
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_standing_games()
;
