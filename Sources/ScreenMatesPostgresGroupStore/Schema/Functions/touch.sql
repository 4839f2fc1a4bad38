-- Moves a group's change number, once per writing call, and notifies its channel with the new
-- one — unless PostgreSQL's notification queue is `notify_queue_limit` full or more (a session
-- that listens and never ends its transaction holds it; a full queue fails every commit that
-- notifies): the write goes through without its notice, and clients ask meanwhile
-- (`notices_skipped`).
CREATE FUNCTION screenmates.touch(p_code text) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_channel text;
    v_seq bigint;
BEGIN
    UPDATE screenmates.group_info SET change_seq = change_seq + 1 WHERE code = p_code
        RETURNING channel, change_seq INTO v_channel, v_seq;
    IF v_channel IS NOT NULL AND NOT screenmates.notices_skipped() THEN
        PERFORM pg_notify(v_channel, v_seq::text);
    END IF;
END $$
;
