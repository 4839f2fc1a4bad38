-- Moves a group's change number, once per writing call, and notifies its channel with the new one.
CREATE FUNCTION screenmates.touch(p_code text) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_channel text;
    v_seq bigint;
BEGIN
    UPDATE screenmates.group_info SET change_seq = change_seq + 1 WHERE code = p_code
        RETURNING channel, change_seq INTO v_channel, v_seq;
    IF v_channel IS NOT NULL THEN
        PERFORM pg_notify(v_channel, v_seq::text);
    END IF;
END $$
;
