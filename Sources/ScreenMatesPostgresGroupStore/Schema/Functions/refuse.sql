-- Refuses a value every client would refuse (SQLSTATE SMVAL: the clients say the message).
CREATE FUNCTION screenmates.refuse(p_message text) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'SMVAL', MESSAGE = p_message;
END $$
;
