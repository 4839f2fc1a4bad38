-- A row of the games written or taken away: its group's games move with this change.
CREATE FUNCTION screenmates.stamp_games() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_code text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        v_code := OLD.code;
    ELSE
        v_code := NEW.code;
    END IF;
    UPDATE screenmates.group_info g SET games_seq = g.change_seq + 1
        WHERE g.code = v_code AND g.games_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

CREATE TRIGGER challenge_participant_games AFTER INSERT OR UPDATE OR DELETE ON screenmates.challenge_participant
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

CREATE TRIGGER group_challenge_games AFTER INSERT OR UPDATE OR DELETE ON screenmates.group_challenge
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

-- A member's profile changes at every block and is none of the games': only joining, leaving and a
-- new name are (the coins and the boards list members by name).
CREATE TRIGGER member_games AFTER INSERT OR DELETE ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

CREATE TRIGGER member_renamed_games AFTER UPDATE OF display_name ON screenmates.member
    FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name)
    EXECUTE FUNCTION screenmates.stamp_games()
;

CREATE TRIGGER week_result_games AFTER INSERT OR UPDATE OR DELETE ON screenmates.week_result
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

-- A change of the settlement rates still to come is part of the games (the week screen says it).
CREATE TRIGGER rules_change_games AFTER INSERT OR UPDATE OR DELETE ON screenmates.rules_change
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;
