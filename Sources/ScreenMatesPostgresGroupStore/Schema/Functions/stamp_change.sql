-- Stamps a row written with the change that writes it: the group's change number plus one, read
-- with the group's row locked. Every writer holds that lock until it commits and moves the change
-- number before it does, so the rows a transaction writes carry a number above every change number
-- readable before it committed: a reader that reads the change number first and the rows after
-- misses none.
CREATE FUNCTION screenmates.stamp_change() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    SELECT g.change_seq + 1 INTO NEW.seq FROM screenmates.group_info g WHERE g.code = NEW.code FOR UPDATE;
    NEW.seq := coalesce(NEW.seq, 0);
    RETURN NEW;
END $$
;

CREATE TRIGGER challenge_participant_stamp BEFORE INSERT OR UPDATE ON screenmates.challenge_participant
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER day_total_stamp BEFORE INSERT OR UPDATE ON screenmates.day_total
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER group_challenge_stamp BEFORE INSERT OR UPDATE ON screenmates.group_challenge
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER member_stamp BEFORE INSERT OR UPDATE ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;

CREATE TRIGGER week_result_stamp BEFORE INSERT OR UPDATE ON screenmates.week_result
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change()
;
