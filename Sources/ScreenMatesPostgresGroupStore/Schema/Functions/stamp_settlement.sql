-- A member joining or leaving (or their join day changing) moves the group's `settle_seq`: the
-- next settlement counts again (`settle_weeks`).
CREATE FUNCTION screenmates.stamp_settlement() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_code text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        v_code := OLD.code;
    ELSE
        v_code := NEW.code;
    END IF;
    UPDATE screenmates.group_info g SET settle_seq = g.change_seq + 1
        WHERE g.code = v_code AND g.settle_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

CREATE TRIGGER member_settlement AFTER INSERT OR DELETE OR UPDATE OF joined_at ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_settlement()
;
