-- Claims waiting for a decision: the user id, the groups and names it holds, who claims it and
-- when, the claim's fingerprint (the first 4 bytes of its secret's hash, which the claimant is
-- shown too), and how many claims the id has (more than one: ask the members who is who).
CREATE FUNCTION screenmates.pending_claims()
RETURNS TABLE (user_id text, names text, role_name text, fingerprint text, claimed_at timestamptz, claimants bigint)
LANGUAGE sql STABLE SET search_path = screenmates, pg_temp AS $$
    SELECT c.user_id::text,
        (SELECT string_agg(m.display_name || ' in ' || m.code, ', ' ORDER BY m.code)
            FROM screenmates.member m WHERE m.user_id = c.user_id),
        c.role_name::text, encode(substr(c.secret_hash, 1, 4), 'hex'), c.claimed_at,
        (SELECT count(*) FROM screenmates.identity_claim x WHERE x.user_id = c.user_id)
    FROM screenmates.identity_claim c ORDER BY c.user_id, c.claimed_at
$$
;
