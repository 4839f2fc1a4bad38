-- Refuses a new machine of the member's past the store's quotas (SMQTA): `machines_per_member` in
-- use, `machines_kept_per_member` in all. The caller holds the member's identity row locked, so
-- two machines added at once are counted in turn.
CREATE FUNCTION screenmates.machine_quota(p_user text) RETURNS void
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_policy screenmates.store_policy := screenmates.policy();
BEGIN
    IF (SELECT count(*) FROM screenmates.machine m WHERE m.user_id = p_user AND m.retired_at IS NULL)
        >= v_policy.machines_per_member
    THEN
        PERFORM screenmates.quota('You use as many machines as the store allows (' || v_policy.machines_per_member
            || '): remove one first (screenmates devices remove NAME).');
    END IF;
    IF (SELECT count(*) FROM screenmates.machine m WHERE m.user_id = p_user) >= v_policy.machines_kept_per_member THEN
        PERFORM screenmates.quota('You have had as many machines as the store keeps (' || v_policy.machines_kept_per_member
            || '); a removed one is let go once no day it sent is kept.');
    END IF;
END $$
;
