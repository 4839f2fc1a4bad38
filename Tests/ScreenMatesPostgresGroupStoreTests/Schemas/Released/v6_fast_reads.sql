-- The group store's sixth schema on PostgreSQL: the calls a following member makes most often,
-- verified in one statement. Applied once, in one transaction, by the program itself. Statements
-- are separated by a line holding only `;`.
--
-- A member who follows a group behind a connection pooler asks for its change number every 2 s
-- (`change_mark`) and reads what changed at each change (`group_changes_after`; `change_marks`
-- before a whole read): at 5,000 members, most of what the server does. Each call verified its
-- caller as every call does, through `caller` (the secret's format, its hash, the identity) and
-- `group_access` (membership, else the wrong-code limit): two more plpgsql functions, half a
-- dozen statements, most of a call's time on a server busy enough that its caches are cold.
-- These three now first try the usual case in one statement — an identity bound to this login
-- and this secret's hash, a member of the group — and take the full path, unchanged, for
-- anything else (a new id to bind, a claim, a wrong secret, someone not in the group, an unknown
-- code), which says what is wrong as before. `group_changes_after` also adds up the week's and the
-- month's sums in one pass over their days, where it called `block_sums_after` once for each. Same
-- answers, same refusals, same grants; clients of the third schema on keep working
-- (compatible_from stays 3).

-- The usual caller, in one statement: an identity bound to this login and to this secret's hash,
-- a member of the group `p_code`; the group's change marks, or no row for anything else (which the
-- full path, `caller` and `group_access`, then explains). What those two would let through, and
-- nothing more. Called only by the API's functions below, as their owner; granted to no one. A
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

REVOKE ALL ON FUNCTION screenmates.verified_marks FROM PUBLIC
;

-- NULL for a code that names no group.
CREATE OR REPLACE FUNCTION screenmates.change_mark(p_user text, p_secret text, p_code text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_user text;
    v_mark bigint;
BEGIN
    -- The usual call: a member known by this login and this secret, asking about a group of
    -- theirs. What `caller` and `group_access` would let through, in one statement.
    SELECT v.change_seq INTO v_mark FROM screenmates.verified_marks(p_user, p_secret, p_code) v;
    IF FOUND THEN
        RETURN v_mark;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.change_seq FROM screenmates.group_info g WHERE g.code = p_code);
END $$
;

-- The group's change number and the change number of the last write that took a row away; no row
-- for a code that names no group.
CREATE OR REPLACE FUNCTION screenmates.change_marks(p_user text, p_secret text, p_code text)
RETURNS TABLE (change_seq bigint, removed_seq bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
BEGIN
    -- The usual call in one statement (see change_mark).
    SELECT v.change_seq, v.removed_seq INTO v_mark, v_removed
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v;
    IF FOUND THEN
        RETURN QUERY SELECT v_mark, v_removed;
        RETURN;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT g.change_seq, g.removed_seq FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

-- What a reader that has seen change number `p_after` needs, in one call (see the fourth schema).
CREATE OR REPLACE FUNCTION screenmates.group_changes_after(
    p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint,
    p_month_first bigint, p_month_last bigint
) RETURNS TABLE (kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint,
    last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint,
    goal_blocks bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
    v_first bigint;
    v_last bigint;
    v_users text[];
BEGIN
    IF p_after IS NULL THEN
        PERFORM screenmates.refuse('A reader catching up names the change number it has seen.');
    END IF;
    -- The usual call, in one statement (see change_mark); anything else takes the full path.
    SELECT v.change_seq, v.removed_seq INTO v_mark, v_removed
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v;
    IF NOT FOUND THEN
        v_user := screenmates.caller(p_user, p_secret);
        IF NOT screenmates.group_access(v_user, p_code) THEN
            RETURN;
        END IF;
        SELECT g.change_seq, g.removed_seq INTO v_mark, v_removed FROM screenmates.group_info g WHERE g.code = p_code;
    END IF;
    RETURN QUERY SELECT 'marks'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint, v_removed, v_mark, NULL::bigint, NULL::bigint, NULL::bigint;
    IF v_removed > p_after OR p_after > v_mark OR p_after = v_mark THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT 'member'::text, m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak,
        m.last_active, m.last_updated, m.version, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint
        FROM screenmates.member m WHERE m.code = p_code AND m.seq > p_after ORDER BY m.joined_at, m.user_id;
    -- Most changes are a profile: no day total moved, no sums to add up.
    IF NOT EXISTS (SELECT 1 FROM screenmates.day_total d WHERE d.code = p_code AND d.seq > p_after) THEN
        RETURN;
    END IF;
    -- The week's and the month's sums (as block_sums_after gives them) in one pass over the days
    -- of both, for the members with a total changed among them: a member's sum is always the
    -- whole of it, so one whose change lies in the month only is sent their (unchanged) week too.
    IF p_week_first IS NULL OR p_week_last IS NULL THEN
        p_week_first := NULL;
        p_week_last := NULL;
    END IF;
    IF p_month_first IS NULL OR p_month_last IS NULL THEN
        p_month_first := NULL;
        p_month_last := NULL;
    END IF;
    v_first := least(p_week_first, p_month_first);
    v_last := greatest(p_week_last, p_month_last);
    IF v_first IS NULL THEN
        RETURN;
    END IF;
    SELECT array_agg(DISTINCT c.user_id) INTO v_users FROM screenmates.day_total c
        WHERE c.code = p_code AND c.seq > p_after AND c.date BETWEEN v_first AND v_last;
    IF v_users IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY
    WITH rows AS (
        SELECT d.user_id AS who, d.date AS on_day, d.vice_blocks AS vice, d.goal_blocks AS goal, d.version AS stamp,
            (length(d.user_id) BETWEEN 1 AND 64 AND d.user_id ~ '^[A-Za-z0-9_-]+$'
                AND d.vice_blocks BETWEEN 0 AND 1440 AND d.goal_blocks BETWEEN 0 AND 96) AS accepted,
            coalesce(d.date BETWEEN p_week_first AND p_week_last, false) AS in_week,
            coalesce(d.date BETWEEN p_month_first AND p_month_last, false) AS in_month
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN v_first AND v_last AND d.user_id = ANY (v_users)
    ),
    periods AS (
        SELECT 'week'::text AS period, r.* FROM rows r WHERE r.in_week
        UNION ALL
        SELECT 'month'::text, r.* FROM rows r WHERE r.in_month
    )
    SELECT p.period, p.who::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, least(sum(p.vice), 9007199254740992)::bigint, NULL::bigint, NULL::bigint, NULL::bigint
        FROM periods p WHERE p.accepted GROUP BY p.period, p.who
    UNION ALL
    SELECT p.period, p.who::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint,
        p.stamp, NULL::bigint, p.on_day, p.vice, p.goal
        FROM periods p WHERE NOT p.accepted;
END $$
;
