-- Settles a group's closed weeks as of the day the settling member names, never later than the
-- server's own day at UTC+14 (no week closes before it has ended somewhere on Earth), in one
-- transaction holding the group's row:
--
-- 1. every member's closed week that has no result yet gets one, by the rules the week started
--    with (the latest change from its first day or before, else the group's own): settled, or
--    pending when days are missing and that rule says to wait for them (a member's days count from the later of
--    the day the group began settling and the day they joined; one call counts at most the last
--    `weeks_per_settlement()`);
-- 2. every pending week whose missing days have arrived is counted again, and made final once
--    none is missing, at the rates it was closed with;
-- 3. the group keeps only the day totals still asked for (`retain_day_totals`) and the challenges
--    that ended within them (`retain_challenges`), and the changes of the rules its weeks have
--    reached become its own (every week before the one in progress has a result now);
-- 4. the day it settled for and the settlement change number it saw are recorded.
--
-- A later call for that day or an earlier one that finds `settle_seq` unmoved (nothing that counts
-- was written since: the stamp_*settlement triggers) would change nothing: it answers at once,
-- without the lock, once its caller is verified in one statement. WeekSettlement.swift is the
-- clients' statement of the same rules; PostgresSettlementAgreementTests feeds both the same
-- random groups. `settled` counts the results made final.
CREATE FUNCTION screenmates.settle_weeks(p_user text, p_secret text, p_code text, p_today bigint, p_now bigint)
RETURNS TABLE (known boolean, settled bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_today bigint := least(p_today, floor((extract(epoch FROM clock_timestamp()) + 50400) / 86400)::bigint);
    v_user text;
    v_at bigint;
    v_group screenmates.group_info%ROWTYPE;
    v_from bigint;
    v_first bigint;
    v_weeks bigint;
    v_new bigint;
    v_new_final bigint;
    v_changed bigint;
    v_changed_final bigint;
    v_removed bigint;
    v_change screenmates.rules_change%ROWTYPE;
BEGIN
    -- The usual call: a member, verified in one statement, on a day already settled for with
    -- nothing that counts written since.
    IF p_today BETWEEN -719162 AND 2932896 AND EXISTS (
        SELECT 1 FROM screenmates.verified_marks(p_user, p_secret, p_code) v
        JOIN screenmates.group_info g ON g.code = p_code
        WHERE g.settled_on >= v_today AND g.settle_seq = g.settled_seq)
    THEN
        RETURN QUERY SELECT true, 0::bigint;
        RETURN;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    v_at := screenmates.call_ms(p_now);
    IF p_today IS NULL OR p_today NOT BETWEEN -719162 AND 2932896 THEN
        PERFORM screenmates.refuse('A date is in the years 1 to 9999.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN QUERY SELECT false, 0::bigint;
        RETURN;
    END IF;
    SELECT * INTO v_group FROM screenmates.group_info g WHERE g.code = p_code;
    v_from := coalesce(v_group.settle_from, screenmates.day_of(v_group.created_at));
    v_first := screenmates.week_first_day(v_from, v_group.week_start);
    v_weeks := greatest((screenmates.week_first_day(v_today, v_group.week_start) - v_first) / 7, 0);

    -- 1. Closed weeks without a result.
    WITH counted AS (
        SELECT w.week, m.user_id, t.kept, t.over, (w.week + 7 - f.first) - t.kept - t.over AS missing,
            r.kept_day_coins AS kept_coins, r.over_day_coins AS over_coins, r.missing_days AS rule
        FROM generate_series(greatest(v_weeks - screenmates.weeks_per_settlement(), 0), v_weeks - 1) AS i
        CROSS JOIN LATERAL (SELECT v_first + 7 * i AS week) w
        CROSS JOIN LATERAL (
            SELECT x.kept_day_coins, x.over_day_coins, x.missing_days FROM (
                SELECT c.from_day, c.kept_day_coins, c.over_day_coins, c.missing_days
                FROM screenmates.rules_change c WHERE c.code = p_code AND c.from_day <= w.week
                UNION ALL
                SELECT NULL, v_group.kept_day_coins, v_group.over_day_coins, v_group.missing_days
            ) x ORDER BY x.from_day DESC NULLS LAST LIMIT 1
        ) r
        JOIN screenmates.member m ON m.code = p_code
        CROSS JOIN LATERAL (SELECT greatest(w.week, v_from, screenmates.day_of(m.joined_at)) AS first) f
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE d.vice_blocks <= d.goal_blocks) AS kept,
                count(*) FILTER (WHERE d.vice_blocks > d.goal_blocks) AS over
            FROM screenmates.day_total d
            WHERE d.code = p_code AND d.user_id = m.user_id AND d.date BETWEEN f.first AND w.week + 6
        ) t
        WHERE f.first <= w.week + 6 AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result x
            WHERE x.code = p_code AND x.user_id = m.user_id AND x.week = w.week)
    ), inserted AS (
        INSERT INTO screenmates.week_result (code, user_id, week, status, kept_days, over_days, missing_days, coins,
            rule, kept_day_coins, over_day_coins, settled_at)
        SELECT p_code, c.user_id, c.week,
            CASE WHEN c.missing > 0 AND c.rule = 'pending' THEN 'pending' ELSE 'settled' END,
            c.kept, c.over, c.missing,
            CASE WHEN c.missing > 0 AND c.rule = 'pending' THEN 0
                ELSE screenmates.week_coins(c.kept, c.over, c.missing, c.kept_coins, c.over_coins)
            END,
            c.rule, c.kept_coins, c.over_coins,
            CASE WHEN c.missing > 0 AND c.rule = 'pending' THEN NULL ELSE v_at END
        FROM counted c
        ON CONFLICT DO NOTHING
        RETURNING status
    )
    SELECT count(*), count(*) FILTER (WHERE status = 'settled') INTO v_new, v_new_final FROM inserted;

    -- 2. Pending weeks, counted again.
    WITH recounted AS (
        SELECT r.user_id, r.week, t.kept, t.over, (r.week + 7 - f.first) - t.kept - t.over AS missing
        FROM screenmates.week_result r
        JOIN screenmates.member m ON m.code = r.code AND m.user_id = r.user_id
        CROSS JOIN LATERAL (SELECT greatest(r.week, v_from, screenmates.day_of(m.joined_at)) AS first) f
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE d.vice_blocks <= d.goal_blocks) AS kept,
                count(*) FILTER (WHERE d.vice_blocks > d.goal_blocks) AS over
            FROM screenmates.day_total d
            WHERE d.code = p_code AND d.user_id = r.user_id AND d.date BETWEEN f.first AND r.week + 6
        ) t
        WHERE r.code = p_code AND r.status = 'pending'
    ), updated AS (
        UPDATE screenmates.week_result r SET
            status = CASE WHEN c.missing = 0 THEN 'settled' ELSE 'pending' END,
            kept_days = c.kept, over_days = c.over, missing_days = c.missing,
            coins = CASE WHEN c.missing = 0
                THEN screenmates.week_coins(c.kept, c.over, c.missing, r.kept_day_coins, r.over_day_coins) ELSE 0 END,
            settled_at = CASE WHEN c.missing = 0 THEN v_at ELSE NULL END
        FROM recounted c
        WHERE r.code = p_code AND r.user_id = c.user_id AND r.week = c.week
            AND (c.missing = 0 OR r.kept_days <> c.kept OR r.over_days <> c.over OR r.missing_days <> c.missing)
        RETURNING r.status
    )
    SELECT count(*), count(*) FILTER (WHERE status = 'settled') INTO v_changed, v_changed_final FROM updated;

    -- 3. What the group keeps; the group's change number moves once for all of it.
    PERFORM screenmates.retain_day_totals(p_code, v_today);
    v_removed := screenmates.retain_challenges(p_code, v_today);
    SELECT * INTO v_change FROM screenmates.rules_change c
        WHERE c.code = p_code AND c.from_day <= screenmates.week_first_day(v_today, v_group.week_start)
        ORDER BY c.from_day DESC LIMIT 1;
    IF FOUND THEN
        UPDATE screenmates.group_info g SET kept_day_coins = v_change.kept_day_coins,
            over_day_coins = v_change.over_day_coins, missing_days = v_change.missing_days
            WHERE g.code = p_code;
        DELETE FROM screenmates.rules_change c WHERE c.code = p_code AND c.from_day <= v_change.from_day;
        v_removed := v_removed + 1;
    END IF;
    IF v_new + v_changed + v_removed > 0 THEN
        PERFORM screenmates.touch(p_code);
    END IF;

    -- 4. The group's row is still locked: nothing that counts was written since it was counted.
    UPDATE screenmates.group_info g SET settled_on = v_today, settled_seq = g.settle_seq WHERE g.code = p_code;
    RETURN QUERY SELECT true, v_new_final + v_changed_final;
END $$
;

GRANT EXECUTE ON FUNCTION screenmates.settle_weeks TO PUBLIC
;
