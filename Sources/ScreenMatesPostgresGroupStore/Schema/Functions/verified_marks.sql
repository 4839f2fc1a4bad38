-- The usual caller, in one statement: an identity bound to this login and to this secret's hash,
-- a member of the group `p_code`; the group's change marks, or no row for anything else (which the
-- full path, `caller` and `group_access`, then explains). What those two would let through, and
-- nothing more. Called only by the API's functions, as their owner; granted to no one. A
-- plain SQL function, so the planner folds it into the caller's query.
CREATE FUNCTION screenmates.verified_marks(p_user text, p_secret text, p_code text)
RETURNS TABLE (change_seq bigint, removed_seq bigint)
LANGUAGE sql STABLE AS $$
    SELECT g.change_seq, g.removed_seq
    FROM screenmates.identity d
    JOIN screenmates.member m ON m.user_id = d.user_id AND m.code = p_code
    JOIN screenmates.group_info g ON g.code = p_code
    WHERE d.user_id = p_user AND d.role_name = session_user
        AND d.secret_hash = sha256(convert_to(p_secret, 'UTF8'))
$$
;
