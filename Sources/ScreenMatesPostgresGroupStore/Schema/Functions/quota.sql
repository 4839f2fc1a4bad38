-- Refuses a call that would pass one of the store's quotas (SQLSTATE SMQTA: the clients say the
-- message and keep the update for later).
CREATE FUNCTION screenmates.quota(p_message text) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'SMQTA', MESSAGE = p_message;
END $$
;
