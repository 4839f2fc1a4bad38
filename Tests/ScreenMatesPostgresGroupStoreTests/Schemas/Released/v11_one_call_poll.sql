-- The group store's eleventh schema on PostgreSQL: a member's question every 2 s is one function,
-- planned once per server connection. Applied once, in one transaction, by the program itself.
-- Statements are separated by a line holding only `;`.
--
-- A member following a group through a connection pooler asks `group_changes_and_games_after` at
-- every beat: at 5,000 members, 2,500 calls a second and most of what the server does. The ninth
-- schema made it a function around `group_changes_after`, so each call entered two SECURITY
-- DEFINER functions (each setting and restoring its settings), copied the inner one's rows into
-- a table before answering them, and read the group's row once more for the games' number. And
-- each of the statements inside was planned again at every call: plpgsql keeps a generic plan
-- only when the planner does not expect a better one for the values at hand, and for "changed
-- after N" it always does. Measured at 1,000 members through PgBouncer (`perf record` on the
-- server), planning inside the functions took a fifth of the server's time, and the two-function
-- call another fifth.
--
-- `group_changes_and_games_after` now does the work itself: the marks and the games' number in
-- the one statement that verifies the caller, then what `group_changes_after` reads, then the
-- games' row. It keeps its arguments, its rows and their order, and its refusals; the games'
-- number is read with the marks, in the same snapshot (so it is never older than they are).
-- It runs with `plan_cache_mode = force_generic_plan`: every statement in it is on the group's
-- code and a change number, whose indexes serve any values. `group_changes_after`, which clients of
-- the third to eighth schema call, answers what the new one does without its games' row, so the
-- reading lives in one place. Clients of the third schema on keep working (compatible_from
-- stays 3).

CREATE OR REPLACE FUNCTION screenmates.group_changes_and_games_after(
    p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint,
    p_month_first bigint, p_month_last bigint
) RETURNS TABLE (kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint,
    last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint,
    goal_blocks bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s'
    SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
    v_games bigint;
    v_first bigint;
    v_last bigint;
    v_users text[];
BEGIN
    IF p_after IS NULL THEN
        PERFORM screenmates.refuse('A reader catching up names the change number it has seen.');
    END IF;
    -- The usual call, in one statement (see change_mark); anything else takes the full path.
    SELECT v.change_seq, v.removed_seq, g.games_seq INTO v_mark, v_removed, v_games
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v
        JOIN screenmates.group_info g ON g.code = p_code;
    IF NOT FOUND THEN
        v_user := screenmates.caller(p_user, p_secret);
        IF NOT screenmates.group_access(v_user, p_code) THEN
            RETURN;
        END IF;
        SELECT g.change_seq, g.removed_seq, g.games_seq INTO v_mark, v_removed, v_games
            FROM screenmates.group_info g WHERE g.code = p_code;
    END IF;
    RETURN QUERY SELECT 'marks'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint, v_removed, v_mark, NULL::bigint, NULL::bigint, NULL::bigint;
    -- What changed after p_after, as the sixth schema's group_changes_after reads it (nothing when
    -- nothing did, or when a row was taken away since: the reader then reads the group whole).
    IF NOT (v_removed > p_after OR p_after > v_mark OR p_after = v_mark) THEN
        RETURN QUERY SELECT 'member'::text, m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak,
            m.last_active, m.last_updated, m.version, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint
            FROM screenmates.member m WHERE m.code = p_code AND m.seq > p_after ORDER BY m.joined_at, m.user_id;
        -- The week's and the month's sums of the members with a day total changed among their
        -- days (most changes are a profile: none).
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
        IF v_first IS NOT NULL THEN
            -- (`date + 0`: the days are a filter, not an index's range. A generic plan takes any
            -- range for a narrow one and would read every day of the group from the primary key.)
            SELECT array_agg(DISTINCT c.user_id) INTO v_users FROM screenmates.day_total c
                WHERE c.code = p_code AND c.seq > p_after AND c.date + 0 BETWEEN v_first AND v_last;
        END IF;
        IF v_users IS NOT NULL THEN
            RETURN QUERY
            WITH rows AS (
                SELECT d.user_id AS who, d.date AS on_day, d.vice_blocks AS vice, d.goal_blocks AS goal,
                    d.version AS stamp,
                    (length(d.user_id) BETWEEN 1 AND 64 AND d.user_id ~ '^[A-Za-z0-9_-]+$'
                        AND d.vice_blocks BETWEEN 0 AND 1440 AND d.goal_blocks BETWEEN 0 AND 96) AS accepted,
                    coalesce(d.date BETWEEN p_week_first AND p_week_last, false) AS in_week,
                    coalesce(d.date BETWEEN p_month_first AND p_month_last, false) AS in_month
                FROM screenmates.day_total d
                WHERE d.code = p_code AND d.user_id = ANY (v_users) AND d.date + 0 BETWEEN v_first AND v_last
            ),
            periods AS (
                SELECT 'week'::text AS period, r.* FROM rows r WHERE r.in_week
                UNION ALL
                SELECT 'month'::text, r.* FROM rows r WHERE r.in_month
            )
            SELECT p.period, p.who::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint,
                NULL::bigint, NULL::bigint, least(sum(p.vice), 9007199254740992)::bigint, NULL::bigint,
                NULL::bigint, NULL::bigint
                FROM periods p WHERE p.accepted GROUP BY p.period, p.who
            UNION ALL
            SELECT p.period, p.who::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint,
                NULL::bigint, p.stamp, NULL::bigint, p.on_day, p.vice, p.goal
                FROM periods p WHERE NOT p.accepted;
        END IF;
    END IF;
    RETURN QUERY SELECT 'games'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint, NULL::bigint, v_games, NULL::bigint, NULL::bigint, NULL::bigint;
END $$
;

-- The sixth schema's answer, for the clients that ask it: the same rows without the games' row.
CREATE OR REPLACE FUNCTION screenmates.group_changes_after(
    p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint,
    p_month_first bigint, p_month_last bigint
) RETURNS TABLE (kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint,
    last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint,
    goal_blocks bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY SELECT * FROM screenmates.group_changes_and_games_after(
        p_user, p_secret, p_code, p_after, p_week_first, p_week_last, p_month_first, p_month_last) r
        WHERE r.kind <> 'games';
END $$
;
