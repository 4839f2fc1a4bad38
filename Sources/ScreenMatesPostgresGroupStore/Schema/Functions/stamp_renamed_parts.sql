-- A member's new name shows on the boards of the challenges they take part in: their parts count
-- as changed with it.
CREATE FUNCTION screenmates.stamp_renamed_parts() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.challenge_participant p SET days_kept = p.days_kept
        WHERE p.code = NEW.code AND p.user_id = NEW.user_id;
    RETURN NULL;
END $$
;

CREATE TRIGGER member_renamed AFTER UPDATE OF display_name ON screenmates.member
    FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name)
    EXECUTE FUNCTION screenmates.stamp_renamed_parts()
;
