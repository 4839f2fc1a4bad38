-- A user id from before identities asks to be bound to the caller's role and secret: 'waiting'
-- (for the owner: `approve_claim`), 'bound' (the caller owns the store, or it was approved). A
-- login has at most `claims_per_login` claims waiting, so that no one login can fill an id's 20.
CREATE FUNCTION screenmates.claim_identity(p_user text, p_secret text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_hash bytea;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF p_secret IS NULL OR p_secret !~ '^[0-9a-f]{32,128}$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMKEY',
            MESSAGE = 'A member''s secret is 32 to 128 hexadecimal digits (128 to 512 bits).';
    END IF;
    v_hash := sha256(convert_to(p_secret, 'UTF8'));
    IF NOT EXISTS (SELECT 1 FROM screenmates.legacy_user l WHERE l.user_id = p_user) THEN
        PERFORM screenmates.caller(p_user, p_secret);
        RETURN 'bound';
    END IF;
    IF screenmates.caller_owns_store() THEN
        PERFORM screenmates.caller(p_user, p_secret);
        RETURN 'bound';
    END IF;
    PERFORM screenmates.lock_login();
    IF EXISTS (SELECT 1 FROM screenmates.identity_claim c
        WHERE c.user_id = p_user AND c.role_name = session_user AND c.secret_hash = v_hash)
    THEN
        RETURN 'waiting';
    END IF;
    IF (SELECT count(*) FROM screenmates.identity_claim c WHERE c.role_name = session_user)
        >= (screenmates.policy()).claims_per_login
    THEN
        PERFORM screenmates.quota('This login has as many claims waiting as the store allows; the store''s owner must decide first.');
    END IF;
    IF (SELECT count(*) FROM screenmates.identity_claim c WHERE c.user_id = p_user) >= 20 THEN
        PERFORM screenmates.quota('This user id has 20 claims waiting; the store''s owner must decide first.');
    END IF;
    INSERT INTO screenmates.identity_claim (user_id, role_name, secret_hash) VALUES (p_user, session_user, v_hash)
        ON CONFLICT DO NOTHING;
    RETURN 'waiting';
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.claim_identity TO PUBLIC
;
