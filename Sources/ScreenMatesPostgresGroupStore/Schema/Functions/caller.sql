-- The caller's verified user id. A user id is bound, when it is first used, to the login role that
-- used it (`session_user`) and to the SHA-256 of a secret of at least 128 bits made on the member's
-- machine; every later call must come from that role with that secret (SMWHO otherwise). An id
-- from before identities waits for the owner's approval (SMCLM; `claim_identity`). New ids are a
-- quota per login and day and in all, counted with the login's other calls waiting (`lock_login`). The shapes of the user id and the secret are checked by their length
-- and a regular expression without a bounded repetition (PostgreSQL's engine expands `{32,128}`
-- into a machine that takes ten times longer, on every call of every member).
CREATE FUNCTION screenmates.caller(p_user text, p_secret text) RETURNS text
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_hash bytea;
    v_identity screenmates.identity%ROWTYPE;
BEGIN
    IF p_user IS NULL OR length(p_user) NOT BETWEEN 1 AND 64 OR p_user !~ '^[A-Za-z0-9_-]+$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL',
            MESSAGE = 'A user id has 1–64 letters, digits, ''-'' or ''_''.';
    END IF;
    IF p_secret IS NULL OR length(p_secret) NOT BETWEEN 32 AND 128 OR p_secret !~ '^[0-9a-f]+$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMKEY',
            MESSAGE = 'A member''s secret is 32 to 128 hexadecimal digits (128 to 512 bits).';
    END IF;
    v_hash := sha256(convert_to(p_secret, 'UTF8'));
    FOR i IN 1..2 LOOP
        SELECT * INTO v_identity FROM screenmates.identity d WHERE d.user_id = p_user;
        IF FOUND THEN
            IF v_identity.role_name <> session_user OR v_identity.secret_hash <> v_hash THEN
                RAISE EXCEPTION USING ERRCODE = 'SMWHO',
                    MESSAGE = 'This user id belongs to another member (another login, or another secret).';
            END IF;
            RETURN p_user;
        END IF;
        IF EXISTS (SELECT 1 FROM screenmates.legacy_user l WHERE l.user_id = p_user) THEN
            IF NOT screenmates.caller_owns_store() THEN
                RAISE EXCEPTION USING ERRCODE = 'SMCLM',
                    MESSAGE = 'This user id is from before members had identities: its claim waits for the store''s owner.';
            END IF;
            DELETE FROM screenmates.legacy_user l WHERE l.user_id = p_user;
        ELSIF NOT screenmates.caller_owns_store() THEN
            PERFORM screenmates.lock_login();
            IF (SELECT count(*) FROM screenmates.identity d
                WHERE d.role_name = session_user AND d.bound_at > clock_timestamp() - interval '1 day')
                >= (screenmates.policy()).new_members_per_login_per_day
            THEN
                PERFORM screenmates.quota('This login has made as many new members today as the store allows; try again tomorrow.');
            END IF;
            IF (SELECT count(*) FROM screenmates.identity d WHERE d.role_name = session_user)
                >= (screenmates.policy()).members_per_login
            THEN
                PERFORM screenmates.quota('This login has as many members as the store allows; the store''s owner can allow more.');
            END IF;
        END IF;
        INSERT INTO screenmates.identity (user_id, role_name, secret_hash) VALUES (p_user, session_user, v_hash)
            ON CONFLICT DO NOTHING;
        IF FOUND THEN
            RETURN p_user;
        END IF;
        -- Bound by another call at the same moment: check against that binding.
    END LOOP;
    RAISE EXCEPTION USING ERRCODE = 'SMWHO', MESSAGE = 'This user id belongs to another member.';
END $$
;
