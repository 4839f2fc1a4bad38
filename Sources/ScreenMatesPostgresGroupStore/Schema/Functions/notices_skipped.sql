-- Whether writes leave their notices out for now: the notification queue is `notify_queue_limit`
-- full or more. A listening client asks at every keep-alive, and follows by asking while it is.
CREATE FUNCTION screenmates.notices_skipped() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
    SELECT pg_catalog.pg_notification_queue_usage() >= (screenmates.policy()).notify_queue_limit
$$
;

GRANT EXECUTE ON FUNCTION screenmates.notices_skipped TO PUBLIC
;
