-- Binds the id to the claim `p_role` made, the one with `p_fingerprint` when given; the other
-- claims go. Answers 'approved', 'no-claim', or 'ambiguous' when the role made claims with
-- several secrets and no fingerprint says which (on a shared login, another member's).
CREATE FUNCTION screenmates.approve_claim(p_user text, p_role text, p_fingerprint text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_hashes bytea[];
BEGIN
    SELECT coalesce(array_agg(c.secret_hash), '{}') INTO v_hashes FROM screenmates.identity_claim c
        WHERE c.user_id = p_user AND c.role_name = p_role
            AND (p_fingerprint IS NULL OR encode(substr(c.secret_hash, 1, 4), 'hex') = lower(p_fingerprint));
    IF cardinality(v_hashes) = 0 THEN
        RETURN 'no-claim';
    END IF;
    IF cardinality(v_hashes) > 1 THEN
        RETURN 'ambiguous';
    END IF;
    INSERT INTO screenmates.identity (user_id, role_name, secret_hash) VALUES (p_user, p_role, v_hashes[1]);
    DELETE FROM screenmates.legacy_user l WHERE l.user_id = p_user;
    RETURN 'approved';
END $$
;
