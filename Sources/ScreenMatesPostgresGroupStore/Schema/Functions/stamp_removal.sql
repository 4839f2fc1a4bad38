-- A row taken away: its group's `removed_seq` moves with this change, and a reader that has seen an
-- earlier change number reads the group whole (a removal leaves no row to catch up from).
CREATE FUNCTION screenmates.stamp_removal() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.group_info g SET removed_seq = g.change_seq + 1
        WHERE g.code = OLD.code AND g.removed_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

CREATE TRIGGER challenge_participant_removal AFTER DELETE ON screenmates.challenge_participant
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

CREATE TRIGGER group_challenge_removal AFTER DELETE ON screenmates.group_challenge
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

CREATE TRIGGER member_removal AFTER DELETE ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;

CREATE TRIGGER week_result_removal AFTER DELETE ON screenmates.week_result
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal()
;
