-- A line taken away (an account deleted: its identity's lines go with it) moves the mark too.
CREATE FUNCTION screenmates.stamp_open_removal() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
    PERFORM nextval('screenmates.open_change_seq');
    RETURN NULL;
END $$
;

CREATE TRIGGER open_participant_removed AFTER DELETE ON screenmates.open_participant
    FOR EACH STATEMENT EXECUTE FUNCTION screenmates.stamp_open_removal()
;
