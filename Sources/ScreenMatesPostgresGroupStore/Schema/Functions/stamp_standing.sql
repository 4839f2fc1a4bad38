-- A new standing (coins, badges) is read by the group with the member's row: the member's rows
-- count as changed with it, in every group they are in (report_standing holds those locked).
CREATE FUNCTION screenmates.stamp_standing() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.member m SET version = m.version WHERE m.user_id = NEW.user_id;
    RETURN NULL;
END $$
;

CREATE TRIGGER coin_standing_stamp AFTER INSERT OR UPDATE ON screenmates.coin_standing
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_standing()
;
